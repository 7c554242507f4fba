import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { Mail, MapPin, Phone } from 'lucide-react';
import { usePublicSettings } from '../../lib/public-settings.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { mailtoHref, telHref } from '../../lib/contact-links.ts';
import { BrandMark } from './brand-mark.tsx';
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

export function PublicFooter() {
  const { name, mode } = useBankIdentity();
  const year = useCopyrightYear();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__about">
          <Link to="/" className="site-footer__brand">
            <BrandMark size={28} />
            <span>{name}</span>
          </Link>
          <p className="site-footer__muted">Savings, current accounts and cards, with every cent recorded in a double-entry ledger.</p>
        </div>
        <nav className="site-footer__column" aria-labelledby="footer-company">
          <h2 id="footer-company">Company</h2>
          <ul>
            <li>
              <Link to="/about">About us</Link>
            </li>
            <li>
              <Link to="/savings">Savings accounts</Link>
            </li>
            <li>
              <Link to="/current">Current accounts</Link>
            </li>
            <li>
              <Link to="/cards">Cards</Link>
            </li>
          </ul>
        </nav>
        <nav className="site-footer__column" aria-labelledby="footer-support">
          <h2 id="footer-support">Support</h2>
          <ul>
            <li>
              <Link to="/faq">FAQ</Link>
            </li>
            <li>
              <Link to="/contact">Contact us</Link>
            </li>
            <li>
              <Link to="/login">Online banking</Link>
            </li>
            {mode === 'sandbox' ? (
              <li>
                <Link to="/dev/mail">Sandbox inbox</Link>
              </li>
            ) : null}
          </ul>
        </nav>
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
