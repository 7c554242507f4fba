import { Link } from 'react-router';
import { PartyPopper } from 'lucide-react';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { useMe } from '../../../lib/api/get-me.ts';
import { AuthScreen } from '../components/auth-screen.tsx';

/**
 * /success: onboarding is done. The seed's 'Take me to signin' leads to the dashboard, since the
 * customer is signed in already (PRODUCT.md D15).
 */
export default function SuccessPage() {
  const { name } = useBankIdentity();
  const me = useMe();
  const identityApproved = me.data?.user.identityStatus === 'approved';
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
      <Notice>
        <p>
          {identityApproved
            ? 'We have confirmed your identity: your checking and savings accounts are open.'
            : 'We are checking your identity document. Your checking and savings accounts open as soon as it is confirmed, and we will email you.'}
        </p>
      </Notice>
      <p className="auth-actions">
        <Link to="/dashboard" className={buttonClassName({ variant: 'primary', size: 'lg', block: true })}>
          Take me to signin
        </Link>
      </p>
    </AuthScreen>
  );
}
