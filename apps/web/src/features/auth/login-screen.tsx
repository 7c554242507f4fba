import { ShieldCheck } from 'lucide-react';
import { Notice } from '../../components/ui/notice.tsx';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { AuthScreen } from './components/auth-screen.tsx';
import { LoginForm, type LoginFormProps } from './login-form.tsx';

export interface LoginScreenProps extends Pick<LoginFormProps, 'onSignedIn'> {
  /**
   * Why the sign-in appeared: the route guard shows it in place of a customer page
   * (`signed-out`); the idle timer signed the customer out (`timed-out`).
   */
  reason?: 'signed-out' | 'timed-out' | undefined;
  /** A result from the page before, such as 'Your password is updated'. */
  notice?: string | undefined;
}

/** The sign-in screen, used by /login and by the route guard in place of a protected page. */
export function LoginScreen({ onSignedIn, reason, notice }: LoginScreenProps) {
  const settings = usePublicSettings();
  const demoSignIn = settings.status === 'success' ? settings.settings.demoSignIn : undefined;
  return (
    <AuthScreen
      title="Sign in to online banking"
      pageTitle="Sign in"
      description="Sign in to online banking."
      lead={
        <p>
          {reason === 'signed-out'
            ? 'Please sign in to continue. You will come back to the page you asked for.'
            : 'Welcome back. Sign in with the email address you registered with.'}
        </p>
      }
    >
      {reason === 'timed-out' ? (
        <div className="login-screen__notice">
          <Notice>
            <p>For your security we signed you out after 15 minutes without activity. Sign in again to continue.</p>
          </Notice>
        </div>
      ) : null}
      {notice ? (
        <div className="login-screen__notice">
          <Notice tone="success" role="status">
            <p>{notice}</p>
          </Notice>
        </div>
      ) : null}
      <LoginForm onSignedIn={onSignedIn} demoSignIn={demoSignIn} />
      <p className="login-screen__safety">
        <ShieldCheck aria-hidden="true" size={18} /> We will never ask for your password by phone, text or email.
      </p>
    </AuthScreen>
  );
}
