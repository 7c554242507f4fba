import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { Mail, MapPin, Phone } from 'lucide-react';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { mailtoHref, telHref } from '../../lib/contact-links.ts';
import { BrandLink } from './brand-mark.tsx';
import './public-footer.css';

const subscribeToNothing = () => () => {};

/**
 * The year for the copyright line. A pre-rendered page carries the year it was built in, and React
 * must find that same text when it adopts the page; a page built last year then shows this year
 * right after.
 */
function useCopyrightYear(): number {
  return useSyncExternalStore(
    subscribeToNothing,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}

function ContactDetails() {
  const settings = usePublicSettings();
  if (settings.status === 'loading') {
    return <p className="site-footer__muted">Loading the bank’s address…</p>;
  }
  if (settings.status === 'error') {
    return (
      <p className="site-footer__muted">
        The bank’s address could not be loaded just now. <Link to="/contact">Contact us</Link> for help.
      </p>
    );
  }
  const { address, phone, supportEmail } = settings.settings;
  return (
    <ul className="site-footer__contact">
      <li>
        <MapPin aria-hidden="true" size={18} />
        <address>{address}</address>
      </li>
      <li>
        <Phone aria-hidden="true" size={18} />
        <a href={telHref(phone)}>{phone}</a>
      </li>
      <li>
        <Mail aria-hidden="true" size={18} />
        <a href={mailtoHref(supportEmail)}>{supportEmail}</a>
      </li>
    </ul>
  );
}

const companyLinks = [
  { to: '/about', label: 'About us' },
  { to: '/savings', label: 'Savings accounts' },
  { to: '/current', label: 'Current accounts' },
  { to: '/cards', label: 'Cards' },
] as const;

const supportLinks = [
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact us' },
  { to: '/login', label: 'Online banking' },
] as const;

const sandboxInboxLink = { to: '/dev/mail', label: 'Sandbox inbox' } as const;

function FooterLinks({ id, title, links }: { id: string; title: string; links: readonly { to: string; label: string }[] }) {
  return (
    <nav className="site-footer__column" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function PublicFooter() {
  const { name, mode } = useBankIdentity();
  const year = useCopyrightYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__about">
          <BrandLink to="/" className="site-footer__brand" />
          <p className="site-footer__muted">Savings, current accounts and cards, with every cent recorded in a double-entry ledger.</p>
        </div>
        <FooterLinks id="footer-company" title="Company" links={companyLinks} />
        <FooterLinks id="footer-support" title="Support" links={mode === 'sandbox' ? [...supportLinks, sandboxInboxLink] : supportLinks} />
        <div className="site-footer__column">
          <h2>Address</h2>
          <ContactDetails />
        </div>
      </div>
      <div className="container site-footer__legal">
        <p>
          © {year} {name}. Runs on Strongroom, open-source banking software.
        </p>
      </div>
    </footer>
  );
}
