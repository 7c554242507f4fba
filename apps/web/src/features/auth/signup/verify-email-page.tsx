import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Mail, RefreshCw } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { formatCountdown } from '../../../lib/dates.ts';
import { useSecondsLeft } from '../../../lib/use-countdown.ts';
import { useSignupStatus } from '../api/get-signup-status.ts';
import { resendSignupEmail } from '../api/resend-signup-email.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { ResendButton } from '../components/resend-button.tsx';
import { pathForNextStep } from '../next-step.ts';
import { SignInPrompt } from '../components/sign-in-prompt.tsx';
import './verify-email-page.css';

/**
 * /verify/{email}: waits for the link in the email to be opened, in this browser or any other, by
 * asking the server every second; the answer that says "verified" has signed this browser in, and
 * the customer goes on to the next step. The countdown (05:50, seed section 9) says how long an
 * email can take to arrive.
 */
export default function VerifyEmailPage() {
  const { email = '' } = useParams();
  const navigate = useNavigate();
  const status = useSignupStatus();
  const [deadlineMs] = useState(() => Date.now() + businessConstants.emailVerificationCountdownSeconds * 1_000);
  const secondsLeft = useSecondsLeft(deadlineMs);
  // Once the link was opened the countdown has nothing left to count: it goes, and the page says so.
  const verified = status.data?.verified === true;

  useEffect(() => {
    if (status.data?.verified) navigate(pathForNextStep(status.data.next, status.data.user.email), { replace: true });
  }, [status.data, navigate]);

  return (
    <AuthScreen
      title="Verify your email"
      description="Open the link we sent to your email address."
      icon={<Mail aria-hidden="true" size={28} />}
      lead={
        <p>
          We sent a link to <strong className="verify-email__address">{email}</strong>. Open it to verify your address, in this browser or on another device:
          this page moves on by itself.
        </p>
      }
    >
      {/* Read as one sentence, "Arrive in 05:50"; not a live region, which would speak every second. */}
      {verified ? null : (
        <p className="verify-email__countdown">
          <span className="verify-email__countdown-label">Arrive in</span> <span className="verify-email__countdown-value">{formatCountdown(secondsLeft)}</span>
        </p>
      )}
      <p className="verify-email__waiting" role="status">
        {verified ? 'Your email address is confirmed. Taking you to the next step…' : 'Waiting for you to open the link…'}
      </p>
      {status.isError ? (
        <Notice tone="error">
          <p>We could not reach the bank to check ({status.error.message}). We keep trying.</p>
        </Notice>
      ) : null}

      <section className="verify-email__help" aria-labelledby="no-email">
        <h2 id="no-email" className="verify-email__help-title">
          Email didn’t arrive?
        </h2>
        <p>Check your spam folder first. You can ask for a new link, or go back and correct your email address.</p>
        <div className="verify-email__actions">
          <ResendButton label="Resend email" noun="link" send={resendSignupEmail} errorTitle="The email was not sent" />
          <Link to="/signup" className="verify-email__change">
            <RefreshCw aria-hidden="true" size={16} />
            Change email address
          </Link>
        </div>
      </section>
      <SignInPrompt question="Verified in another browser?" />
    </AuthScreen>
  );
}
