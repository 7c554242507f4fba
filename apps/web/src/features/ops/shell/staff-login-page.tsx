import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { LogIn } from 'lucide-react';
import { staffLoginRequestSchema, type StaffLoginRequest } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { fetchSandboxStaffSignIn, useStaffLogin } from '../api/staff-session.ts';
import './staff-login-page.css';

/** `/ops/login`: email, password and the authenticator's code (TOTP is mandatory for staff, D16). */
export default function StaffLoginPage() {
  const { name, mode } = useBankIdentity();
  const login = useStaffLogin();
  const navigate = useNavigate();
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

  const onSubmit = handleSubmit((values) => login.mutate(values, { onSuccess: () => navigate('/ops', { replace: true }) }));

  async function fillSandboxAdmin() {
    const signIn = await fetchSandboxStaffSignIn();
    setValue('email', signIn.email, { shouldValidate: true, shouldTouch: true });
    setValue('password', signIn.password, { shouldValidate: true, shouldTouch: true });
    setValue('code', signIn.code, { shouldValidate: true, shouldTouch: true });
  }

  return (
    <main className="staff-login">
      <div className="staff-login__card">
        <h1>{name} back office</h1>
        <p className="staff-login__lead">Staff sign-in. You need your authenticator app.</p>
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
      <ErrorDialog message={login.error?.message} onClose={() => login.reset()} title="Sign-in failed" />
    </main>
  );
}
