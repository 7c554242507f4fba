import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Table, type TableColumn } from '../../components/ui/table.tsx';
import { formatMoney } from '../../lib/money.ts';
import './recent-transactions.css';
import { paymentStatusWords } from '@strongroom/contracts/messages.ts';

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** The seed's history date, YYYY-MM-DD, on the customer's own calendar. */
export function calendarDate(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${isoDateTime}`);
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}

const columns: readonly TableColumn<Transaction>[] = [
  {
    key: 'status',
    header: 'Status',
    cell: (transaction) => (
      <span className={`transaction-status transaction-status--${transaction.status}`}>
        <span className="transaction-status__dot" aria-hidden="true" />
        {paymentStatusWords[transaction.status]}
      </span>
    ),
  },
  {
    key: 'date',
    header: 'Date',
    cell: (transaction) => (
      <time dateTime={transaction.createdAt} className="recent-transactions__date tabular">
        {calendarDate(transaction.createdAt)}
      </time>
    ),
  },
  { key: 'description', header: 'Description', cell: (transaction) => transaction.description },
  { key: 'category', header: 'Category', cell: (transaction) => transaction.category },
  {
    key: 'amount',
    header: 'Amount',
    numeric: true,
    // The sign says in or out; the colour repeats it for those who see it.
    cell: (transaction) => <span className={transaction.amountCents < 0 ? 'money-out' : 'money-in'}>{formatMoney(transaction.amountCents, 'history')}</span>,
  },
];

/** The latest lines of the customer's history, in the seed's history columns and formats. */
export function RecentTransactions({ transactions }: { transactions: readonly Transaction[] }) {
  return (
    // Not "Recent transactions": the section around it is a region of that name already, and two
    // regions of one name cannot be told apart by a screen reader's landmark list.
    <div className="recent-transactions">
      <Table
        caption="Latest transactions, newest first"
        captionHidden
        columns={columns}
        rows={transactions}
        rowKey={(transaction) => transaction.id}
        empty={<p className="recent-transactions__empty">No transactions yet. Money you receive or send shows here.</p>}
      />
    </div>
  );
}
