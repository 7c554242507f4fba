import { Link } from 'react-router';
import { PartyPopper } from 'lucide-react';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { useMe } from '../../../lib/api/get-me.ts';
import { useLiveEvents } from '../../../lib/live-events.ts';
import { AuthScreen } from '../components/auth-screen.tsx';

/** While staff check the document, the page asks again this often (live events usually say it sooner). */
export const identityFollowMs = 5_000;

/**
 * /success: onboarding is done. The seed's 'Take me to signin' leads to the dashboard, since the
 * customer is signed in already (PRODUCT.md D15). It follows the identity check live and says when
 * the accounts are open.
 */
export default function SuccessPage() {
  const { name } = useBankIdentity();
  useLiveEvents();
  const me = useMe({ everyMs: identityFollowMs, until: (answer) => answer.user.identityStatus === 'approved' || answer.user.identityStatus === 'rejected' });
  const identityStatus = me.data?.user.identityStatus;
  return (
    <AuthScreen
      title="Account Created!"
      pageTitle="Account created"
      description="Your online banking is ready."
      icon={<PartyPopper aria-hidden="true" size={28} />}
      iconTone="success"
      lead={
        <p>
          Welcome to {name}, {me.data?.user.firstName}. Your online banking is ready.
        </p>
      }
    >
      <Notice tone={identityStatus === 'approved' ? 'success' : identityStatus === 'rejected' ? 'error' : 'info'} role="status">
        {identityStatus === 'approved' ? (
          <p>Your accounts are ready: we have confirmed your identity and opened your checking and savings accounts.</p>
        ) : identityStatus === 'rejected' ? (
          <p>
            We could not confirm your identity from the document you sent. <Link to="/registeration">Send it again</Link> to open your accounts.
          </p>
        ) : (
          <p>
            We are checking your identity document. Your checking and savings accounts open as soon as it is confirmed; this page will say so, and we will email
            you.
          </p>
        )}
      </Notice>
      <p className="auth-actions">
        <Link to="/dashboard" className={buttonClassName({ variant: 'primary', size: 'lg', block: true })}>
          Take me to signin
        </Link>
      </p>
    </AuthScreen>
  );
}
