import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Table } from '../../components/ui/table.tsx';
import { transactionColumns } from '../history/transaction-rows.tsx';
import './recent-transactions.css';

/** The history screen's cells; the description is plain text here, the history screen opens the line's details. */
const columns = transactionColumns((transaction) => <span className="transaction-description">{transaction.description}</span>);

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
