import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, FileDown, MessageSquareWarning } from 'lucide-react';
import { mayReportLine } from '@strongroom/contracts/disputes.ts';
import type { Transaction, TransactionDetail } from '@strongroom/contracts/transactions.ts';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useTransactionDetail } from './api/get-transaction-detail.ts';
import { transactionReceiptUrl } from './api/transaction-receipt.ts';
import { calendarDate, TransactionStatus } from '../../components/transactions/transaction-format.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import './transaction-details-dialog.css';

/** Deposits (and the bank's opening deposit) get the seed's deposit detail; every other kind its transfer detail. */
function isDeposit(transaction: Transaction): boolean {
  return transaction.kind === 'deposit' || transaction.kind === 'funding';
}

/** The seed's read-only Amount, written as money is everywhere else: `-$1,234.00`. */
function AmountField({ cents }: { cents: number }) {
  return <TextField label="Amount" readOnly value={formatMoney(cents)} className="tabular" />;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return <FactRow term={term}>{children ?? <span className="history-details__none">Not applicable</span>}</FactRow>;
}

function StatusFact({ detail }: { detail: TransactionDetail }) {
  return (
    <Fact term="Status">
      <TransactionStatus status={detail.transaction.status} />
      {detail.statusReason ? <span className="history-details__reason">: {detail.statusReason}</span> : null}
    </Fact>
  );
}

function DetailFacts({ detail }: { detail: TransactionDetail }) {
  const { transaction, account, counterparty } = detail;
  const ownAccount = `${account.type === 'savings' ? 'Savings' : 'Checking'} ${account.number}`;
  if (isDeposit(transaction)) {
    return (
      <FactList>
        <Fact term="Deposit ID">
          <span className="tabular">{transaction.transferId}</span>
        </Fact>
        <StatusFact detail={detail} />
        <Fact term="Into your account">{ownAccount}</Fact>
        <Fact term="Receipt reference">{detail.receiptReference}</Fact>
      </FactList>
    );
  }
  const moneyOut = transaction.amountCents < 0;
  return (
    <FactList>
      <Fact term="Account number">{counterparty.accountNumber ? <span className="tabular">{counterparty.accountNumber}</span> : null}</Fact>
      <Fact term="Account name">{counterparty.name}</Fact>
      <Fact term="Routing number">{counterparty.routeNumber ? <span className="tabular">{counterparty.routeNumber}</span> : null}</Fact>
      {counterparty.bankName ? <Fact term="Bank">{counterparty.bankName}</Fact> : null}
      <Fact term="Reason">{detail.reason || null}</Fact>
      <Fact term="Transfer medium">{detail.medium}</Fact>
      <StatusFact detail={detail} />
      <Fact term={moneyOut ? 'From your account' : 'Into your account'}>{ownAccount}</Fact>
      <Fact term="Receipt reference">{detail.receiptReference}</Fact>
    </FactList>
  );
}

export interface TransactionDetailsDialogProps {
  /** The line that was opened; null when the dialog is closed. */
  transaction: Transaction | null;
  onClose: () => void;
}

/**
 * The seed's Details dialog: read-only Amount and Date, then the transfer's or the deposit's detail,
 * 'print receipt' (the PDF) and two ways to close it (the close button and the backspace icon).
 * A detail that fails to load shows the error dialog; closing the details closes that too.
 */
export function TransactionDetailsDialog({ transaction, onClose }: TransactionDetailsDialogProps) {
  const detail = useTransactionDetail(transaction?.id ?? null);
  const { timeZone } = useBankIdentity();
  const [dismissedErrorAt, setDismissedErrorAt] = useState(0);
  const errorMessage = transaction && detail.isError && detail.errorUpdatedAt !== dismissedErrorAt ? detail.error.message : null;

  return (
    <>
      <Dialog
        open={transaction !== null}
        onClose={onClose}
        title="Details"
        description={transaction ? <p>{transaction.description}</p> : null}
        footer={
          transaction ? (
            <>
              <button type="button" className={`${buttonClassName({ variant: 'secondary' })} history-details__back`} onClick={onClose}>
                <ArrowLeft aria-hidden="true" size={18} />
                Back to history
              </button>
              <a className={buttonClassName({ variant: 'primary' })} href={transactionReceiptUrl(transaction.id)} download>
                <FileDown aria-hidden="true" size={18} />
                <span className="history-seed-label">print receipt</span>
              </a>
            </>
          ) : null
        }
      >
        {transaction ? (
          <div className="history-details">
            <div className="history-details__read-only">
              <AmountField cents={transaction.amountCents} />
              <TextField label="Date" readOnly value={calendarDate(transaction.createdAt, timeZone)} className="tabular" />
            </div>
            {detail.isPending ? (
              <LoadingLine className="history-details__loading">Loading the details…</LoadingLine>
            ) : detail.isError ? (
              <p className="history-details__failed">The details could not be loaded. The receipt may still be downloaded.</p>
            ) : (
              <DetailFacts detail={detail.data} />
            )}
            {mayReportLine(transaction) ? (
              // Issue 34: an error notice under Regulation E starts from the line it is about.
              <Link to={`/disputes/new?transferId=${encodeURIComponent(transaction.transferId)}`} className="history-details__report">
                <MessageSquareWarning aria-hidden="true" size={18} />
                Report a problem with this transaction
              </Link>
            ) : null}
          </div>
        ) : null}
      </Dialog>
      <ErrorDialog title="The details could not be loaded" message={errorMessage} onClose={() => setDismissedErrorAt(detail.errorUpdatedAt)} />
    </>
  );
}
