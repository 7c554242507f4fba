import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { KeyRound, LogIn } from 'lucide-react';
import { loginRequestSchema, type LoginRequest, type SessionResponse } from '@strongroom/contracts/auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useLogin } from './api/login.ts';
import { passkeyPromptProblem, usePasskeySignIn } from '../../lib/api/passkey-sign-in.ts';
import { SubmitWhenValid } from './components/submit-when-valid.tsx';
import './login-form.css';

export interface LoginFormProps {
  /** What to do once signed in; the caller knows whether to stay on the page or move on. */
  onSignedIn: (result: SessionResponse, email: string) => void;
  /** Sandbox only: the demo customer's sign-in, offered as a one-click fill. */
  demoSignIn?: { email: string; password: string } | undefined;
}

/** Whether this browser has WebAuthn at all (a secure context with `PublicKeyCredential`). */
function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext !== false && typeof window.PublicKeyCredential === 'function';
}

/**
 * Email and password; the button turns on only when both are valid (seed section 5). Or a passkey
 * (docs/decisions/030), where the browser has them: no email needed, the device's prompt picks one.
 */
export function LoginForm({ onSignedIn, demoSignIn }: LoginFormProps) {
  const login = useLogin();
  const passkeySignIn = usePasskeySignIn();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors, isValid },
  } = useForm<LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => {
    login.mutate(values, { onSuccess: (result) => onSignedIn(result, values.email) });
  });

  function fillDemoSignIn() {
    if (!demoSignIn) return;
    setValue('email', demoSignIn.email, { shouldValidate: true, shouldTouch: true });
    setValue('password', demoSignIn.password, { shouldValidate: true, shouldTouch: true });
  }

  return (
    <>
      {demoSignIn ? (
        <div className="login-form__demo">
          <p>
            <strong>Sandbox demo customer.</strong> Email <code>{demoSignIn.email}</code>, password <code>{demoSignIn.password}</code>.
          </p>
          <Button variant="secondary" size="sm" onClick={fillDemoSignIn}>
            Fill in the demo sign-in
          </Button>
        </div>
      ) : null}
      <form className="login-form" noValidate onSubmit={onSubmit}>
        <TextField label="Email" type="email" autoComplete="username" inputMode="email" required error={errors.email?.message} {...register('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" required error={errors.password?.message} {...register('password')} />
        <p className="login-form__forgot">
          <Link to="/forgetpassword">Forgot password?</Link>
        </p>
        <SubmitWhenValid
          valid={isValid}
          loading={login.isPending}
          hintId="login-hint"
          hintClassName="login-form__hint"
          hint="Enter your email address and password to sign in."
        >
          <LogIn aria-hidden="true" size={18} />
          Sign in
        </SubmitWhenValid>
        <p className="login-form__signup">
          New here? <Link to="/signup">Create an account</Link>
        </p>
      </form>
      {browserHasPasskeys() ? (
        <div className="login-form__passkey">
          <p className="login-form__or">or</p>
          <Button
            variant="secondary"
            size="lg"
            block
            loading={passkeySignIn.isPending}
            onClick={() => passkeySignIn.mutate(undefined, { onSuccess: (result) => onSignedIn(result, result.user.email) })}
          >
            <KeyRound aria-hidden="true" size={18} />
            Sign in with a passkey
          </Button>
        </div>
      ) : null}
      <ErrorDialog title="Sign-in failed" message={login.error?.message} onClose={() => login.reset()} />
      <ErrorDialog
        title="Passkey sign-in failed"
        message={passkeySignIn.error ? (passkeyPromptProblem(passkeySignIn.error) ?? passkeySignIn.error.message) : undefined}
        onClose={() => passkeySignIn.reset()}
      />
    </>
  );
}
