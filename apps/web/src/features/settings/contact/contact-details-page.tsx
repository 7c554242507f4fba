import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { AddressSection } from './address-section.tsx';
import { useContactDetails } from './api/contact-details.ts';
import { EmailSection } from './email-section.tsx';
import { PhoneSection } from './phone-section.tsx';
import '../security/security.css';
import './contact-details.css';

/**
 * /settings/contact, 'Contact details' (issue 39 item 7, docs/decisions/059): the email, phone and
 * postal address, each changed behind a code from a factor the customer already has.
 */
export default function ContactDetailsPage() {
  const contact = useContactDetails();
  return (
    <div className="security-page">
      <PageMeta title="Contact details" description="Your email address, phone number and postal address." noIndex />
      <p className="security-page__back">
        <Link to="/settings">
          <ArrowLeft aria-hidden="true" size={18} />
          Settings
        </Link>
      </p>
      <header className="security-page__header">
        <h1>Contact details</h1>
        <p>How we reach you. Each change asks for a security code first, and we tell you at the old address or number too.</p>
      </header>
      {contact.isPending ? (
        <p className="security-section__loading" aria-busy="true">
          <Spinner size="sm" /> Loading your contact details…
        </p>
      ) : contact.isError ? (
        <LoadFailed title="We could not load your contact details" query={contact} headingLevel={2} />
      ) : (
        <>
          <EmailSection contact={contact.data} />
          <PhoneSection contact={contact.data} />
          <AddressSection key={JSON.stringify(contact.data.address)} contact={contact.data} />
        </>
      )}
    </div>
  );
}
