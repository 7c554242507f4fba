import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { RefreshCw, ShieldCheck, ShieldX } from 'lucide-react';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { ReceiptVerification } from '@strongroom/contracts/transactions.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { RoundIcon } from '../../components/ui/round-icon.tsx';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useReceiptVerification } from './api/verify-receipt.ts';
import './receipt-verify-page.css';
import { paymentStatusWords } from '@strongroom/contracts/messages.ts';

const kindWords: Readonly<Record<PaymentKind, string>> = {
  own: 'Transfer between own accounts',
  internal: 'Transfer within the bank',
  external: 'Transfer to another bank',
  card: 'Transfer to a card',
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  funding: 'Opening deposit',
  loan_disbursement: 'Loan disbursement',
  loan_repayment: 'Loan repayment',
  referral_bonus: 'Referral bonus',
  interest: 'Interest',
  fee: 'Monthly maintenance fee',
  fee_refund: 'Fee refund',
  bill: 'Bill payment',
  dispute_credit: 'Dispute credit',
  dispute_reversal: 'Dispute credit reversed',
};

function Facts({ receipt }: { receipt: ReceiptVerification }) {
  const facts: [string, ReactNode][] = [
    ['Reference', <span className="tabular">{receipt.reference}</span>],
    ['Amount', <span className="tabular">{formatMoney(receipt.amountCents)}</span>],
    ['Date', <time dateTime={machineDateTime(receipt.date)}>{formatDateTime(receipt.date)}</time>],
    ['Status', paymentStatusWords[receipt.status]],
    ['Kind', kindWords[receipt.kind]],
  ];
  if (receipt.fromAccount) facts.push(['From account', <span className="tabular">{receipt.fromAccount}</span>]);
  if (receipt.toAccount) facts.push(['To account', <span className="tabular">{receipt.toAccount}</span>]);
  return (
    <FactList className="receipt-verify__facts">
      {facts.map(([term, value]) => (
        <FactRow key={term} term={term}>
          {value}
        </FactRow>
      ))}
    </FactList>
  );
}

function Outcome({ reference }: { reference: string }) {
  const verification = useReceiptVerification(reference);
  if (verification.isPending) {
    return <LoadingLine>Checking the receipt…</LoadingLine>;
  }
  if (verification.isError) {
    return (
      <Card className="message-stack">
        <h1>We could not check this receipt just now</h1>
        <p role="alert">{verification.error.message}</p>
        <div>
          <Button variant="secondary" onClick={() => void verification.refetch()} loading={verification.isFetching}>
            <RefreshCw aria-hidden="true" size={18} />
            Try again
          </Button>
        </div>
      </Card>
    );
  }
  if (verification.data === null) {
    return (
      <Card className="message-stack receipt-verify__card--unknown">
        <RoundIcon tone="danger">
          <ShieldX aria-hidden="true" size={32} />
        </RoundIcon>
        <h1>We have no receipt with this reference</h1>
        <p>
          The reference <strong className="tabular">{reference}</strong> is not on any receipt this bank issued. Check that it was typed exactly as printed. A
          receipt whose reference we do not know may have been altered or made up: do not rely on it.
        </p>
        <p>
          Questions? <Link to="/contact">Contact us</Link>.
        </p>
      </Card>
    );
  }
  return (
    <Card className="message-stack receipt-verify__card--genuine">
      <RoundIcon tone="success">
        <ShieldCheck aria-hidden="true" size={32} />
      </RoundIcon>
      <h1>Genuine receipt</h1>
      <p>This bank issued a receipt with this reference. Compare these details with the receipt you were given; they must all match.</p>
      <Facts receipt={verification.data} />
    </Card>
  );
}

/**
 * /receipts/verify/{reference}: where a receipt's QR code leads. Anyone holding a receipt (a
 * landlord, an accountant) can confirm the bank issued it. It shows only what the receipt already
 * prints, with account numbers masked; public, so nothing else about the customer is shown.
 */
export default function ReceiptVerifyPage() {
  const { reference = '' } = useParams();
  return (
    <div className="receipt-verify container">
      <PageMeta title="Verify a receipt" description="Check that a transaction receipt was issued by this bank." noIndex />
      <Outcome reference={reference} />
    </div>
  );
}
