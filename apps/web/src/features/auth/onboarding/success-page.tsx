import { Link } from 'react-router';
import { PartyPopper } from 'lucide-react';
import { noAccountMessage, noAccountMessages } from '@strongroom/contracts/messages.ts';
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
 * customer is signed in already (docs/product.md D15). It follows the identity check live: while staff
 * check the document it says so, and that nothing is wrong (decision 057); it says the banking is
 * ready only once the accounts are open.
 */
export default function SuccessPage() {
  const { name } = useBankIdentity();
  useLiveEvents();
  const me = useMe({ everyMs: identityFollowMs, until: (answer) => answer.user.identityStatus === 'approved' || answer.user.identityStatus === 'rejected' });
  const identityStatus = me.data?.user.identityStatus;
  const ready = identityStatus === 'approved';
  const summary = ready ? 'Your online banking is ready.' : 'We are checking your identity document.';
  return (
    <AuthScreen
      title="Account Created!"
      pageTitle="Account created"
      description={summary}
      icon={<PartyPopper aria-hidden="true" size={28} />}
      iconTone="success"
      lead={
        <p>
          Welcome to {name}, {me.data?.user.firstName}. {summary}
        </p>
      }
    >
      <Notice tone={ready ? 'success' : identityStatus === 'rejected' ? 'error' : 'info'} role="status">
        {ready ? (
          <p>Your accounts are ready: we have confirmed your identity and opened your checking and savings accounts.</p>
        ) : identityStatus === 'rejected' || identityStatus === 'not_submitted' ? (
          <>
            <p>{noAccountMessage(identityStatus)}</p>
            <p>
              <Link to="/registeration">{identityStatus === 'rejected' ? 'Send it again' : 'Send your identity document'}</Link>
            </p>
          </>
        ) : (
          <p>{noAccountMessages.identityPending} This page says so too, the moment they are open.</p>
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
