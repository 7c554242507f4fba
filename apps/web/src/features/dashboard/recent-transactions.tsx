import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Table } from '../../components/ui/table.tsx';
import { TransactionLines, transactionColumns, transactionHeading } from '../../components/transactions/transaction-rows.tsx';
import { useNarrowScreen } from '../../lib/use-narrow-screen.ts';
import './recent-transactions.css';

/** The history screen's cells; the description is plain text here, the history screen opens the line's details. */
const columns = transactionColumns((transaction) => <span className="transaction-description">{transactionHeading(transaction)}</span>);

// Not "Recent transactions": the section around it is a region of that name already, and two
// regions of one name cannot be told apart by a screen reader's landmark list.
const listName = 'Latest transactions, newest first';

const empty = <p className="recent-transactions__empty">No transactions yet. Money you receive or send shows here.</p>;

/**
 * Narrow screens: one line per transaction, description and amount on top, status, date and category
 * under them, as the history screen lists them. The five columns would not fit a phone, and a table
 * that scrolls sideways hides the amount, the one thing the customer looks for.
 */
function RecentTransactionList({ transactions }: { transactions: readonly Transaction[] }) {
  if (transactions.length === 0) return empty;
  return (
    <ul className="transaction-list" aria-label={listName}>
      {transactions.map((transaction) => (
        <li key={transaction.id} className="transaction-list__entry">
          <TransactionLines transaction={transaction} descriptionClassName="recent-transactions__description" />
        </li>
      ))}
    </ul>
  );
}

/** The latest lines of the customer's history, in the seed's history columns and formats; a list on a phone. */
export function RecentTransactions({ transactions }: { transactions: readonly Transaction[] }) {
  const narrow = useNarrowScreen();
  return (
    <div className="recent-transactions">
      {narrow ? (
        <RecentTransactionList transactions={transactions} />
      ) : (
        <Table caption={listName} captionHidden columns={columns} rows={transactions} rowKey={(transaction) => transaction.id} empty={empty} />
      )}
    </div>
  );
}
