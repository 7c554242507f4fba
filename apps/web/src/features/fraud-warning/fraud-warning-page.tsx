import { Link, useLocation } from 'react-router';
import { Hourglass, ShieldAlert } from 'lucide-react';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { RoundIcon } from '../../components/ui/round-icon.tsx';
import { formatDate, machineDateTime } from '../../lib/dates.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useMe } from '../../lib/api/get-me.ts';
import { useHeldTransfers } from './api/get-held-transfers.ts';
import './fraud-warning-page.css';

/** The code each of the seed's code screens asked for, as scammers name it, with the article it is read with ("an IMF code"). */
const codeNames: Readonly<Record<string, string>> = {
  '/tax': 'a tax',
  '/bsa': 'a BSA',
  '/tac': 'a TAC',
  '/nrc': 'an NRC',
  '/imf': 'an IMF',
  '/cot': 'a COT',
};

function HeldTransfer({ transfer }: { transfer: Payment }) {
  return (
    <Card as="li" className="held-transfer">
      <div className="held-transfer__main">
        <p className="held-transfer__name">{transfer.counterparty.name}</p>
        <p className="held-transfer__meta">
          <time dateTime={machineDateTime(transfer.createdAt)}>{formatDate(transfer.createdAt)}</time>
          {transfer.message ? ` · ${transfer.message}` : null}
        </p>
      </div>
      <div className="held-transfer__figures">
        <p className="held-transfer__amount tabular">{formatMoney(transfer.amountCents)}</p>
        <Badge tone="warning" as="p">
          <Hourglass aria-hidden="true" size={14} />
          In review
        </Badge>
      </div>
    </Card>
  );
}

/** The signed-in customer's held transfers, or that there are none; nothing at all for a visitor. */
function YourHeldTransfers() {
  const me = useMe();
  const signedIn = me.isSuccess;
  const held = useHeldTransfers(signedIn);
  if (!signedIn) {
    if (me.isPending) return null;
    return (
      <p className="fraud-warning__sign-in">
        Bank with us? <Link to="/login">Sign in</Link> to see whether any of your transfers is being reviewed.
      </p>
    );
  }
  return (
    <section className="fraud-warning__section" aria-labelledby="held-title">
      <h2 id="held-title">Your transfers in review</h2>
      {held.isPending ? (
        <LoadingLine>Loading your transfers…</LoadingLine>
      ) : held.isError ? (
        <p role="alert">We could not load your transfers just now: {held.error.message}</p>
      ) : held.data.length === 0 ? (
        <p>None of your transfers is being reviewed. Nothing is waiting for a code or a fee, because we never ask for either.</p>
      ) : (
        <>
          <p>
            {held.data.length === 1 ? 'This transfer is' : 'These transfers are'} being reviewed by our staff. The money stays reserved in your account; you do
            not need to do anything.
          </p>
          <ul className="held-transfers">
            {held.data.map((transfer) => (
              <HeldTransfer key={transfer.id} transfer={transfer} />
            ))}
          </ul>
          <p>
            <Link to="/transaction-history">See your transaction history</Link>
          </p>
        </>
      )}
    </section>
  );
}

/**
 * /tax, /bsa, /tac, /nrc, /imf and /cot: where the seed asked for a code to release a payment, this
 * bank warns against advance-fee fraud (docs/product.md D1). Public, since a person being scammed may
 * arrive from a link; a signed-in customer also sees their transfers that are held for review.
 */
export default function FraudWarningPage() {
  const { pathname } = useLocation();
  const codeName = codeNames[pathname.replace(/\/+$/, '')] ?? 'a release';
  return (
    <div className="fraud-warning container">
      <PageMeta
        title="We never ask for a code to release your money"
        description="Tax, COT, IMF, TAC, NRC or BSA codes and release fees are a scam. How a real review of a transfer works."
      />
      <header className="message-stack">
        <RoundIcon tone="danger">
          <ShieldAlert aria-hidden="true" size={32} />
        </RoundIcon>
        <h1>We will never ask you for {codeName} code</h1>
        <p className="fraud-warning__lead">{resultMessages.fraudWarning}</p>
        <p>If someone asked you for a code or a fee to release a transfer, it is a scam. Do not pay, do not share any code, and contact us.</p>
        <Link to="/contact" className={buttonClassName({ variant: 'primary', size: 'lg' })}>
          Contact us
        </Link>
      </header>

      <section className="fraud-warning__section" aria-labelledby="review-title">
        <h2 id="review-title">How a real review works</h2>
        <p>Sometimes we hold a transfer to check it before it leaves, for example a large payment or one to someone new. While it is held:</p>
        <ul className="fraud-warning__facts">
          <li>Our staff review it, then either send it or cancel it.</li>
          <li>The money stays reserved in your account. It is not spent, and if the transfer is cancelled it is available again at once.</li>
          <li>Nothing is asked of you: no code, no fee, no tax payment, no call to a number you were given.</li>
          <li>We tell you the outcome in your notifications, and your history shows it as “In review”, then sent or “Rejected”.</li>
        </ul>
      </section>

      <YourHeldTransfers />
    </div>
  );
}
