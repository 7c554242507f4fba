import { Link } from 'react-router';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Accordion, type AccordionItem } from '../../../components/ui/accordion.tsx';
import { formatPrice } from '../../../lib/money.ts';
import { PageHero } from '../components/page-hero.tsx';
import '../public-pages.css';

const { achSettlementBusinessDays, wireSettlementHours, cardApprovalDays, cardMinimumSavingsCents, supportReplyHours } = businessConstants;

const questions: readonly AccordionItem[] = [
  {
    id: 'open-account',
    title: 'How do I open an account?',
    content: (
      <>
        <p>
          Sign up with your name, email address and a password, then confirm your email and your phone number. We then ask for a photo of your passport or ID
          card and a profile photo, so we know it is really you.
        </p>
        <p>Once our team has checked your identity, your current and savings accounts open and appear in online banking.</p>
      </>
    ),
  },
  {
    id: 'transfer-time',
    title: 'How long does a transfer take?',
    content: (
      <p>
        Transfers between accounts at this bank arrive at once. Transfers to other banks go by ACH, which takes {achSettlementBusinessDays.min} to{' '}
        {achSettlementBusinessDays.max} business days; withdrawals go by wire, which arrives within {wireSettlementHours} hours. Your history shows each payment
        as pending until it has settled.
      </p>
    ),
  },
  {
    id: 'in-review',
    title: 'Why does my transfer say “In review”?',
    content: (
      <>
        <p>
          To protect you from fraud, some payments are checked by a person before they leave: for example a single transfer of $10,000 or more, or several large
          payments to a new payee in one day. The money stays reserved in your account while we look.
        </p>
        <p>
          You do not need to do anything. If we release the payment it goes on its way; if we reject it, the money returns to your available balance and we tell
          you why.
        </p>
      </>
    ),
  },
  {
    id: 'codes-and-fees',
    title: 'Will you ever ask me to pay a fee or give a code to release my money?',
    content: (
      <>
        <p>
          <strong>Never.</strong> We will never ask you for a tax, COT, IMF, TAC, NRC or BSA code, and never ask you to pay a fee to customer care to release a
          transfer. Anyone who does is trying to steal from you.
        </p>
        <p>
          We do sometimes send a six-digit one-time code by text message to confirm that it is really you making a payment. Type it only into online banking,
          and never read it out to anyone, including our staff.
        </p>
      </>
    ),
  },
  {
    id: 'get-a-card',
    title: 'How do I get a debit or credit card?',
    content: (
      <p>
        Request one under <Link to="/card">Card</Link> in online banking and choose debit or credit, Visa or Mastercard. You need an available balance of{' '}
        {formatPrice(cardMinimumSavingsCents)} on your savings account. Our staff approve each request within {cardApprovalDays} days, and the card appears in
        online banking as soon as it is approved.
      </p>
    ),
  },
  {
    id: 'forgot-password',
    title: 'I forgot my password. What do I do?',
    content: (
      <p>
        Choose “Forgot password” on the <Link to="/login">sign-in page</Link> and enter your email address. We send you a link to set a new password. The link
        works once and expires soon after, and setting a new password signs out every other device.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'How do I reach a person?',
    content: (
      <p>
        Write to us from the <Link to="/contact">contact page</Link> or, once signed in, from <Link to="/help">Help</Link> (a secure message). A member of our
        team answers within {supportReplyHours} hours. Refunds of card payments can be requested within {businessConstants.refundWindowDays} days.
      </p>
    ),
  },
];

export function FaqPage() {
  return (
    <>
      <PageMeta
        title="Frequently asked questions"
        description="Answers about opening an account, transfer times, payments in review, cards, passwords and how to reach our team."
      />
      <PageHero eyebrow="Support" title="Frequently asked questions">
        <p>
          Short answers to what people ask us most. Open as many as you like; if your question is not here, <Link to="/contact">send us a message</Link>.
        </p>
      </PageHero>
      <section className="section" aria-label="Questions and answers">
        <div className="container">
          <div className="prose-width">
            <Accordion items={questions} headingLevel={2} />
          </div>
        </div>
      </section>
    </>
  );
}
