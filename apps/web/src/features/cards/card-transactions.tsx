import { Receipt } from 'lucide-react';
import { declineReasonLabels, type CardTransaction } from '@strongroom/contracts/cards.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { useCardTransactions } from './api/card-activity.ts';

/** A card transaction's state in words (never by colour alone). */
export function cardTransactionStatus(transaction: Pick<CardTransaction, 'status' | 'releasesAt' | 'declineReason'>): string {
  switch (transaction.status) {
    case 'pending':
      return transaction.releasesAt ? `Pending - releases on ${formatDate(transaction.releasesAt)}` : 'Pending';
    case 'cleared':
      return 'Cleared';
    case 'reversed':
      return 'Reversed';
    case 'expired':
      return 'Hold released';
    case 'declined':
      return transaction.declineReason ? `Declined: ${declineReasonLabels[transaction.declineReason]}` : 'Declined';
  }
}

/** Money that left (or is held): what cleared, else what was authorised; nothing moved for the others. */
function TransactionAmount({ transaction }: { transaction: CardTransaction }) {
  if (transaction.status === 'cleared') return <MoneyAmount cents={-(transaction.clearedCents ?? transaction.amountCents)} signed />;
  if (transaction.status === 'pending') return <MoneyAmount cents={-transaction.amountCents} signed />;
  return (
    <span className="card-transactions__void">
      <MoneyAmount cents={transaction.amountCents} />
    </span>
  );
}

export function CardTransactions({ cardId }: { cardId: string }) {
  const transactions = useCardTransactions(cardId);
  if (transactions.isPending) {
    return (
      <p aria-busy="true">
        <Spinner size="sm" /> Loading the card’s transactions…
      </p>
    );
  }
  if (transactions.isError) return <LoadFailed title="We could not load the card’s transactions" headingLevel={3} query={transactions} />;
  if (transactions.data.length === 0) {
    return (
      <EmptyState icon={<Receipt aria-hidden="true" size={28} />} title="No card transactions yet" headingLevel={3}>
        <p>Purchases with this card show here as soon as the shop asks for the money.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="card-transactions" aria-label="Recent card transactions">
      {transactions.data.map((transaction) => (
        <li key={transaction.id} className={`card-transactions__item card-transactions__item--${transaction.status}`}>
          <div className="card-transactions__what">
            <span className="card-transactions__merchant">{transaction.merchantName}</span>
            <span className="card-transactions__detail">
              {transaction.category} · <time dateTime={transaction.createdAt}>{formatDateTime(transaction.createdAt)}</time>
            </span>
          </div>
          <div className="card-transactions__money">
            <TransactionAmount transaction={transaction} />
            <span className={`card-transactions__status card-transactions__status--${transaction.status}`}>{cardTransactionStatus(transaction)}</span>
            {transaction.status === 'cleared' && transaction.clearedCents !== null && transaction.clearedCents !== transaction.amountCents ? (
              <span className="card-transactions__detail">
                Authorised <MoneyAmount cents={transaction.amountCents} />
              </span>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
