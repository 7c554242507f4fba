import type { MouseEvent, ReactNode } from 'react';
import { lineHeading } from '@strongroom/contracts/history-line.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Table, type TableColumn } from '../ui/table.tsx';
import { TransactionAmount, TransactionDate, TransactionStatus } from './transaction-format.tsx';
import './transaction-rows.css';

/** The seed's table heading; the page heading is 'History'. */
export const historyTableTitle = 'Recent transactions';

interface RowsProps {
  transactions: readonly Transaction[];
  onOpen: (transaction: Transaction) => void;
}

function OpenButton({ transaction, onOpen }: { transaction: Transaction; onOpen: RowsProps['onOpen'] }) {
  return (
    <button type="button" className="history-open" aria-haspopup="dialog" data-transaction-id={transaction.id} onClick={() => onOpen(transaction)}>
      <span className="transaction-description">{transactionHeading(transaction)}</span>
    </button>
  );
}

/** Who the line was with, then its description: "To Grace Landlord · Rent for May". */
export function transactionHeading(transaction: Pick<Transaction, 'party' | 'description'>): string {
  return lineHeading(transaction.party, transaction.description);
}

/** The seed's history columns, Status, Date, Description, Category, Amount: the history table's and the dashboard's. */
export function transactionColumns(description: (transaction: Transaction) => ReactNode): readonly TableColumn<Transaction>[] {
  // A description as long as a message may be (140 characters) wraps onto two lines at most; the details show it whole.
  return [
    { key: 'status', header: 'Status', cell: (transaction) => <TransactionStatus status={transaction.status} /> },
    { key: 'date', header: 'Date', cell: (transaction) => <TransactionDate createdAt={transaction.createdAt} /> },
    { key: 'description', header: 'Description', cell: description },
    { key: 'category', header: 'Category', cell: (transaction) => transaction.category },
    { key: 'amount', header: 'Amount', numeric: true, cell: (transaction) => <TransactionAmount transaction={transaction} /> },
  ];
}

function columnsFor(onOpen: RowsProps['onOpen']): readonly TableColumn<Transaction>[] {
  // The description is the row's control: a keyboard reaches it with Tab and opens the details with Enter.
  return transactionColumns((transaction) => <OpenButton transaction={transaction} onOpen={onOpen} />);
}

/** Wide screens: the seed's table, Status, Date, Description, Category, Amount. A click anywhere on a row opens it. */
export function TransactionTable({ transactions, onOpen }: RowsProps) {
  // A mouse may click anywhere on the row; the row's button is what the keyboard and screen readers use.
  function openClickedRow(event: MouseEvent<HTMLDivElement>) {
    if (!(event.target instanceof Element) || event.target.closest('button, a')) return;
    const id = event.target.closest('tr')?.querySelector<HTMLElement>('[data-transaction-id]')?.dataset.transactionId;
    const transaction = transactions.find((item) => item.id === id);
    if (transaction) onOpen(transaction);
  }

  return (
    <div className="history-table" onClick={openClickedRow}>
      <Table caption={historyTableTitle} columns={columnsFor(onOpen)} rows={transactions} rowKey={(transaction) => transaction.id} />
    </div>
  );
}

/**
 * A transaction as narrow screens list it (history and dashboard): who and how much on top, the
 * amount always in view, then status, date and category. `descriptionClassName` names the
 * description for its screen.
 */
export function TransactionLines({ transaction, descriptionClassName }: { transaction: Transaction; descriptionClassName: string }) {
  return (
    <>
      <span className="transaction-line">
        <span className={`transaction-line__description ${descriptionClassName}`}>{transactionHeading(transaction)}</span>
        <TransactionAmount transaction={transaction} />
      </span>
      <span className="transaction-line transaction-line--meta">
        <TransactionStatus status={transaction.status} />
        <TransactionDate createdAt={transaction.createdAt} />
        <span>{transaction.category}</span>
      </span>
    </>
  );
}

/** Narrow screens: one card per line, the amount always in view, nothing that scrolls sideways. */
export function TransactionList({ transactions, onOpen }: RowsProps) {
  return (
    <section className="history-list" aria-labelledby="history-list-title">
      <h2 id="history-list-title" className="history-list__title">
        {historyTableTitle}
      </h2>
      <ul className="transaction-list history-list__items">
        {transactions.map((transaction) => (
          <li key={transaction.id}>
            <button type="button" className="transaction-list__entry history-list__item" aria-haspopup="dialog" onClick={() => onOpen(transaction)}>
              <TransactionLines transaction={transaction} descriptionClassName="history-list__description" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
