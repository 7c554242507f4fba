import { ShieldCheck } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { Card } from '../../components/ui/card.tsx';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { LoginForm, type LoginFormProps } from './login-form.tsx';

export interface LoginScreenProps extends Pick<LoginFormProps, 'onSignedIn'> {
  /** Shown by the route guard in place of a customer page: say why the sign-in appeared. */
  reason?: 'signed-out';
}

/** The sign-in screen, used by /login and by the route guard in place of a protected page. */
export function LoginScreen({ onSignedIn, reason }: LoginScreenProps) {
  const settings = usePublicSettings();
  const demoSignIn = settings.status === 'success' ? settings.settings.demoSignIn : undefined;
  return (
    <div className="login-screen container">
      <PageMeta title="Sign in" description="Sign in to online banking." noIndex />
      <Card className="login-screen__card">
        <h1>Sign in to online banking</h1>
        <p className="login-screen__lead">
          {reason === 'signed-out'
            ? 'Please sign in to continue. You will come back to the page you asked for.'
            : 'Welcome back. Sign in with the email address you registered with.'}
        </p>
        <LoginForm onSignedIn={onSignedIn} demoSignIn={demoSignIn} />
        <p className="login-screen__lead login-screen__safety">
          <ShieldCheck aria-hidden="true" size={18} /> We will never ask for your password by phone, text or email.
        </p>
      </Card>
    </div>
  );
}
