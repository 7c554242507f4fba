import { SettingsPageLayout } from '../settings-page-layout.tsx';
import { AuthenticatorSection } from './authenticator-section.tsx';
import { PasskeysSection } from './passkeys-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { SessionsSection } from './sessions-section.tsx';

/**
 * /settings/security, 'Security' (issue 15): the password, the second factors (authenticator app,
 * passkeys) and where the customer is signed in. Each section is its own file in this folder.
 */
export default function SecurityPage() {
  return (
    <SettingsPageLayout
      title="Security"
      description="Your password, second factors and sessions."
      lead="Control how you sign in and confirm payments, and who is signed in to your account."
    >
      <PasswordSection />
      <AuthenticatorSection />
      <PasskeysSection />
      <SessionsSection />
    </SettingsPageLayout>
  );
}
