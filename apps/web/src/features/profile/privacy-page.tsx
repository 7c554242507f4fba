import { Link } from 'react-router';
import { Clock, FileText, RotateCcw, Truck } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import './profile-pages.css';

const { refundWindowDays, achSettlementBusinessDays, wireSettlementHours, supportReplyHours } = businessConstants;

/**
 * /privacy (seed section 2): the four cards, with the bank's name. Open to everyone: sign-up's
 * "terms" and "privacy" words lead here, so a visitor reads it in the public frame and a customer
 * in the bank's (app-routes.tsx).
 */
export default function PrivacyPage() {
  const { name } = useBankIdentity();
  return (
    <Page className="privacy container">
      <PageMeta title="Terms and privacy" description={`${name} terms and conditions, refund policy, money delivery times and support.`} />
      <PageHeader title="Terms and privacy" />
      <div className="privacy__cards">
        <Card as="section" aria-labelledby="privacy-terms" className="privacy__card">
          <h2 id="privacy-terms">
            <FileText aria-hidden="true" size={22} />
            {name} Terms and Conditions
          </h2>
          <p>
            Your accounts with {name} are for your own personal use. Keep your password and the codes we send you to yourself: we will never ask for them by
            phone, email or message, and never ask you to pay a fee or a tax to release your money.
          </p>
          <p>
            We keep your personal details to run your accounts and to meet the law, show them only to you and to the staff who need them, and never sell them.
            You can see every sign-in and change to your account in your security settings.
          </p>
        </Card>
        <Card as="section" aria-labelledby="privacy-refunds" className="privacy__card">
          <h2 id="privacy-refunds">
            <RotateCcw aria-hidden="true" size={22} />
            {name} Refund Policy
          </h2>
          <p>
            If we charged you in error, tell us within {refundWindowDays} days and we refund it within {refundWindowDays} days of your request, to the account
            it was taken from.
          </p>
        </Card>
        <Card as="section" aria-labelledby="privacy-delivery" className="privacy__card">
          <h2 id="privacy-delivery">
            <Truck aria-hidden="true" size={22} />
            Money Delivery
          </h2>
          <p>
            Transfers to another bank go by ACH and arrive in {achSettlementBusinessDays.min}-{achSettlementBusinessDays.max} business days. Withdrawals go by
            wire and arrive within {wireSettlementHours} hours. Transfers between {name} accounts arrive at once.
          </p>
        </Card>
        <Card as="section" aria-labelledby="privacy-support" className="privacy__card">
          <h2 id="privacy-support">
            <Clock aria-hidden="true" size={22} />
            24/7 online support
          </h2>
          <p>
            Write to us at any time, day or night, from the <Link to="/contact">contact page</Link>: we reply within {supportReplyHours} hours.
          </p>
        </Card>
      </div>
    </Page>
  );
}
