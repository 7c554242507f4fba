import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { mailtoHref, telHref } from '../../../lib/contact-links.ts';
import { usePublicSettings } from '../../../lib/public-settings.ts';
import { ContactForm } from '../components/contact-form.tsx';
import { PageHero } from '../components/page-hero.tsx';
import '../public-pages.css';
import './contact-page.css';

/** Address, phone and email come from the bank's settings; they arrive after the first paint. */
function ContactDetails() {
  const settings = usePublicSettings();
  if (settings.status !== 'success') {
    return (
      <p className="contact-details__pending" aria-live="polite">
        {settings.status === 'loading'
          ? 'Loading our address and phone number…'
          : 'Our address and phone number could not be loaded just now; the form below still reaches us.'}
      </p>
    );
  }
  const { address, phone, supportEmail } = settings.settings;
  return (
    <dl className="contact-details">
      <div>
        <dt>
          <MapPin aria-hidden="true" size={20} />
          Address
        </dt>
        <dd>
          <address>{address}</address>
        </dd>
      </div>
      <div>
        <dt>
          <Phone aria-hidden="true" size={20} />
          Phone
        </dt>
        <dd>
          <a href={telHref(phone)}>{phone}</a>
        </dd>
      </div>
      <div>
        <dt>
          <Mail aria-hidden="true" size={20} />
          Email
        </dt>
        <dd>
          <a href={mailtoHref(supportEmail)}>{supportEmail}</a>
        </dd>
      </div>
    </dl>
  );
}

export function ContactPage() {
  const { name } = useBankIdentity();
  return (
    <>
      <PageMeta
        title="Contact us"
        description={`Write to ${name}, call us or visit: our address and phone number, and a form that reaches our support team, who answer within ${businessConstants.supportReplyHours} hours.`}
      />
      <PageHero eyebrow="Support" title="Contact us">
        <p>
          Questions about an account, a card or a payment? Send us a message and a member of our team will answer within {businessConstants.supportReplyHours}{' '}
          hours.
        </p>
      </PageHero>
      <section className="section" aria-label="Ways to reach us">
        <div className="container contact-layout">
          <Card tone="flat" className="contact-info">
            <h2>Reach us</h2>
            <ContactDetails />
            <p className="contact-info__hours">
              <Clock aria-hidden="true" size={20} />
              We reply to every message within {businessConstants.supportReplyHours} hours.
            </p>
            <p className="contact-info__note">Never send your password, a one-time code or a full card number in a message. We will never ask for them.</p>
          </Card>
          <Card className="contact-form-card">
            <h2>Send us a message</h2>
            <ContactForm />
          </Card>
        </div>
      </section>
    </>
  );
}
