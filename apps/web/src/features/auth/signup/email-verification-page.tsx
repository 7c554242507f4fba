import { useParams } from 'react-router';
import { CircleCheck, MailOpen } from 'lucide-react';
import { authMessages, tokenRequestSchema } from '@strongroom/contracts/auth.ts';
import { Notice } from '../../../components/ui/notice.tsx';
import { useVerifyEmail } from '../api/verify-email.ts';
import { AuthProgress, AuthScreen } from '../components/auth-screen.tsx';
import { BrokenLinkScreen } from '../components/broken-link-screen.tsx';
import { SignInPrompt } from '../components/sign-in-prompt.tsx';

const description = 'Verifying your email address.';

/**
 * /verification/{token}: the link from the email. It is often opened on another device than the
 * one that signed up, so it does not sign anyone in; the waiting tab does that (see /verify).
 */
export default function EmailVerificationPage() {
  const { token = '' } = useParams();
  // A link cut short by an email program cannot be right; no need to ask the server.
  const wellFormed = tokenRequestSchema.safeParse({ token }).success;
  const verification = useVerifyEmail(token, { enabled: wellFormed });

  if (!wellFormed || verification.isError) {
    return (
      <BrokenLinkScreen
        description={description}
        message={verification.error?.message ?? authMessages.verificationLinkInvalid}
        action={{ to: '/login', label: 'Sign in' }}
      />
    );
  }

  if (verification.isSuccess) {
    return (
      <AuthScreen title="Email verified" description={description} icon={<CircleCheck aria-hidden="true" size={28} />} iconTone="success" focusKey="verified">
        <Notice tone="success" role="status">
          <p>{verification.data.message} You can close this tab; the tab where you signed up continues.</p>
        </Notice>
        <SignInPrompt question="Signed up on another device?" linkText="Sign in here" />
      </AuthScreen>
    );
  }

  return (
    <AuthScreen title="Verification in progress" description={description} icon={<MailOpen aria-hidden="true" size={28} />}>
      <AuthProgress label="Checking your link…" />
    </AuthScreen>
  );
}
