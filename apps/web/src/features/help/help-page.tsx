import { Link } from 'react-router';
import { MessageCircle } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Accordion, type AccordionItem } from '../../components/ui/accordion.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import './help-page.css';

const { achSettlementBusinessDays: ach, wireSettlementHours, stepUpCodeDigits, imageMaxBytes, supportReplyHours } = businessConstants;
const photoMegabytes = imageMaxBytes / (1024 * 1024);

function topics(bankName: string): readonly AccordionItem[] {
  return [
    {
      id: 'withdraw',
      title: 'How to withdraw',
      content: (
        <ol className="help__steps">
          <li>
            Open <Link to="/withdraw">Withdraw</Link> from the menu.
          </li>
          <li>Choose the account the money comes from and enter the amount.</li>
          <li>Enter the account it goes to: your account at another bank, with its bank name and address, account name, account number and routing number.</li>
          <li>
            Confirm with the {stepUpCodeDigits}-digit code we text to your phone (or the code of your authenticator app, if you added one in{' '}
            <Link to="/settings">Settings</Link>). A code works once, for this withdrawal only.
          </li>
          <li>
            The money leaves your balance at once and reaches the other bank by wire within {wireSettlementHours} hours. You can follow it in{' '}
            <Link to="/transaction-history">History</Link>.
          </li>
          <li>
            A large withdrawal may be held for a check by our team first: it shows as “In review”, the money stays reserved, and we tell you as soon as it is
            released. {bankName} will never ask you for a fee or a “tax”, “COT” or other code to release your money.
          </li>
        </ol>
      ),
    },
    {
      id: 'profile',
      title: 'How to edit your profile',
      content: (
        <ol className="help__steps">
          <li>
            Open <Link to="/profile">Profile</Link> from the menu.
          </li>
          <li>Choose Change photo to pick a new profile photo: a PNG or JPEG of up to {photoMegabytes} MB. We remove its location data before we keep it.</li>
          <li>
            Your name, email address and phone number are the ones we verified when you opened your account. To change one, write to us in Live chat below: we
            check it is you before we change it.
          </li>
          <li>
            Your password, authenticator app, passkeys, signed-in devices and notification choices are in <Link to="/settings">Settings</Link>.
          </li>
        </ol>
      ),
    },
    {
      id: 'deposit',
      title: 'How to deposit',
      content: (
        <ol className="help__steps">
          <li>
            First link an account you hold at another bank in <Link to="/deposit/sources">Your other banks</Link>: enter its account name, account number,
            routing number and type, and confirm with the code we text you.
          </li>
          <li>
            We send two small deposits of less than $1.00 each to that account. When they show in that bank’s statement, enter the two amounts to verify it (you
            have 3 tries).
          </li>
          <li>
            Then open <Link to="/deposit">Deposit</Link>, choose the verified account the money comes from, the account it goes to, the amount and a reason.
          </li>
          <li>
            The deposit is pulled from the other bank by ACH: it shows as pending and can be spent once it settles, in {ach.min} to {ach.max} business days. A
            daily deposit limit applies; the Deposit page tells you if an amount is over it.
          </li>
        </ol>
      ),
    },
  ];
}

/** /help: the seed's three topics answered for this bank, and 'Live chat' opening secure messages. */
export default function HelpPage() {
  const { name } = useBankIdentity();
  return (
    <Page className="help">
      <PageMeta title="Help" description={`Answers to common questions about ${name}, and a secure chat with our support team.`} noIndex />
      <PageHeader title="Help" lead="Answers to the questions we hear most. Choose a question to open its answer." />
      <Accordion items={topics(name)} headingLevel={2} />
      <Card as="section" className="help__chat" aria-labelledby="help-chat-title">
        <h2 id="help-chat-title">Still need help?</h2>
        <p>
          Write to our support team in a secure message. It stays inside {name}, and we answer within {supportReplyHours} hours; you get a notification when we
          do.
        </p>
        <Link to="/messages?new=1" className={buttonClassName({ size: 'lg' })}>
          <MessageCircle aria-hidden="true" size={20} />
          Live chat
        </Link>
      </Card>
    </Page>
  );
}
