import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthenticatorSection } from './authenticator-section.tsx';
import { PasskeysSection } from './passkeys-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import './security.css';

/**
 * /settings/security, 'Security' (issue 15): the password, the second factors (authenticator app,
 * passkeys) and where the customer is signed in. Each section is its own file in this folder.
 */
export default function SecurityPage() {
  return (
    <div className="security-page">
      <PageMeta title="Security" description="Your password, second factors and sessions." noIndex />
      <p className="security-page__back">
        <Link to="/settings">
          <ArrowLeft aria-hidden="true" size={18} />
          Settings
        </Link>
      </p>
      <header className="security-page__header">
        <h1>Security</h1>
        <p>Control how you sign in and confirm payments, and who is signed in to your account.</p>
      </header>
      <PasswordSection />
      <AuthenticatorSection />
      <PasskeysSection />
      <SessionsSection />
    </div>
  );
}
