import { businessConstants } from '@strongroom/contracts/constants.ts';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { LogIn } from 'lucide-react';
import { staffLoginRequestSchema, type StaffLoginRequest } from '@strongroom/contracts/staff.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { fetchSandboxStaffSignIn, useStaffLogin } from '../api/staff-session.ts';
import './staff-login-page.css';

/** Where to go after signing in: the console page first asked for, never a page outside /ops. */
const idleMinutes = businessConstants.sessionIdleTimeoutMs / 60_000;
const absoluteHours = businessConstants.staffSessionAbsoluteTimeoutMs / 3_600_000;

function loginStateOf(state: unknown): { from: string; sessionEnded: boolean } {
  const record = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
  const from = typeof record.from === 'string' && record.from.startsWith('/ops') && !record.from.startsWith('/ops/login') ? record.from : '/ops';
  return { from, sessionEnded: record.sessionEnded === true };
}

/** The server's refusals in the words a staff member can act on. */
function signInErrorText(error: Error): string {
  if (!isApiError(error)) return error.message;
  if (error.status === 429) return `Too many attempts. ${error.message}`;
  return error.message;
}

/** `/ops/login`: email, password and the authenticator's code (TOTP is mandatory for staff, D16). */
export default function StaffLoginPage() {
  const { name, mode } = useBankIdentity();
  const login = useStaffLogin();
  const navigate = useNavigate();
  const state: unknown = useLocation().state;
  const { from, sessionEnded } = loginStateOf(state);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<StaffLoginRequest>({
    resolver: zodResolver(staffLoginRequestSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '', code: '' },
  });

  const onSubmit = handleSubmit((values) => login.mutate(values, { onSuccess: () => navigate(from, { replace: true }) }));

  async function fillSandboxAdmin() {
    const signIn = await fetchSandboxStaffSignIn();
    setValue('email', signIn.email, { shouldValidate: true, shouldTouch: true });
    setValue('password', signIn.password, { shouldValidate: true, shouldTouch: true });
    setValue('code', signIn.code, { shouldValidate: true, shouldTouch: true });
  }

  return (
    <main className="staff-login" id="main" tabIndex={-1}>
      <PageMeta title="Staff sign-in · Back office" description="Sign in to the back office." noIndex />
      <div className="staff-login__card">
        <h1>{name} back office</h1>
        <p className="staff-login__lead">Staff sign-in. You need your authenticator app.</p>
        {sessionEnded && !login.error ? (
          <Notice role="status">
            Your session ended: a staff session ends after {idleMinutes} minutes without activity, and after {absoluteHours} hours in any case. Please sign in
            again to continue.
          </Notice>
        ) : null}
        {login.error ? (
          <Notice tone="error" role="alert">
            {signInErrorText(login.error)}
          </Notice>
        ) : null}
        {mode === 'sandbox' ? (
          <div className="staff-login__sandbox">
            <p>
              <strong>Sandbox admin.</strong> The sandbox created an administrator at its first start.
            </p>
            <Button variant="secondary" size="sm" onClick={() => void fillSandboxAdmin()}>
              Fill in the sandbox admin with the current code
            </Button>
          </div>
        ) : null}
        <form noValidate onSubmit={onSubmit} className="staff-login__form">
          <TextField label="Email" type="email" autoComplete="username" required error={errors.email?.message} {...register('email')} />
          <TextField label="Password" type="password" autoComplete="current-password" required error={errors.password?.message} {...register('password')} />
          <TextField
            label="Authenticator code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            required
            hint="The 6 digits your authenticator app shows now"
            error={errors.code?.message}
            {...register('code')}
          />
          <Button type="submit" loading={login.isPending}>
            <LogIn aria-hidden="true" size={18} />
            Sign in
          </Button>
        </form>
      </div>
    </main>
  );
}
