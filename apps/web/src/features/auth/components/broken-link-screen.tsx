import { Link } from 'react-router';
import { CircleX } from 'lucide-react';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { AuthScreen } from './auth-screen.tsx';

export interface BrokenLinkScreenProps {
  description: string;
  /** Why the emailed link cannot be used, as the server said it, or the contract's wording. */
  message: string;
  /** Where the customer can go from here: a new link, or sign-in. */
  action: { to: string; label: string };
}

/** An emailed link (verification, password reset) that is cut short, expired or already used. */
export function BrokenLinkScreen({ description, message, action }: BrokenLinkScreenProps) {
  return (
    <AuthScreen
      title="This link does not work"
      description={description}
      icon={<CircleX aria-hidden="true" size={28} />}
      iconTone="danger"
      focusKey="broken-link"
    >
      <Notice tone="error" role="alert">
        <p>{message}</p>
      </Notice>
      <p className="auth-actions">
        <Link to={action.to} className={buttonClassName({ variant: 'primary', block: true })}>
          {action.label}
        </Link>
      </p>
    </AuthScreen>
  );
}
