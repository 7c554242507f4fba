import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MailCheck } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { useSecondsLeft } from '../../../lib/use-countdown.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { pathForNextStep } from '../next-step.ts';

/** After sign-up: the server's message, then on to /verify/{email} after 3 seconds (seed section 4). */
export function SignupAccepted({ email, message }: { email: string; message: string }) {
  const navigate = useNavigate();
  const nextPath = pathForNextStep('verify-email', email);
  const [deadlineMs] = useState(() => Date.now() + businessConstants.redirectAfterSignupMs);
  const secondsLeft = useSecondsLeft(deadlineMs);

  useEffect(() => {
    if (secondsLeft === 0) navigate(nextPath, { replace: true });
  }, [secondsLeft, navigate, nextPath]);

  return (
    <AuthScreen
      title="Check your email"
      description="We sent you a link to verify your email address."
      icon={<MailCheck aria-hidden="true" size={28} />}
      focusKey="accepted"
    >
      <Notice tone="success" role="status">
        <p>{message}</p>
      </Notice>
      <p className="signup-accepted__next">
        Taking you to the next step in {secondsLeft} {secondsLeft === 1 ? 'second' : 'seconds'}…{' '}
        <Link to={nextPath} replace>
          Continue now
        </Link>
      </p>
    </AuthScreen>
  );
}
