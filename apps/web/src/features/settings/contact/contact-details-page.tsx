import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { AddressSection } from './address-section.tsx';
import { useContactDetails } from './api/contact-details.ts';
import { EmailSection } from './email-section.tsx';
import { PhoneSection } from './phone-section.tsx';
import { SettingsPageLayout } from '../settings-page-layout.tsx';
import './contact-details.css';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

/**
 * /settings/contact, 'Contact details' (issue 39 item 7, docs/decisions/059): the email, phone and
 * postal address, each changed behind a code from a factor the customer already has.
 */
export default function ContactDetailsPage() {
  const contact = useContactDetails();
  return (
    <SettingsPageLayout
      title="Contact details"
      description="Your email address, phone number and postal address."
      lead="How we reach you. Each change asks for a security code first, and we tell you at the old address or number too."
    >
      {contact.isPending ? (
        <LoadingLine className="security-section__loading">Loading your contact details…</LoadingLine>
      ) : contact.isError ? (
        <LoadFailed title="We could not load your contact details" query={contact} headingLevel={2} />
      ) : (
        <>
          <EmailSection contact={contact.data} />
          <PhoneSection contact={contact.data} />
          <AddressSection key={JSON.stringify(contact.data.address)} contact={contact.data} />
        </>
      )}
    </SettingsPageLayout>
  );
}
