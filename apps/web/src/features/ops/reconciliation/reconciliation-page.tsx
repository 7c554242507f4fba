import { ExceptionsQueue } from './exceptions-queue.tsx';
import { StatementImport } from './statement-import.tsx';
import { StatementsTable } from './statements-table.tsx';
import './reconciliation.css';

/**
 * `/ops/reconciliation` (`reconciliation.manage`): the settlement bank's statements against the
 * ledger (issue 35 item 4; docs/books.md, "Reconciliation"). Each movement the bank reports is
 * matched to a ledger entry or waits in the exceptions queue until staff resolve it with a reason.
 */
export default function ReconciliationPage() {
  return (
    <section aria-labelledby="reconciliation-title" className="ops-page reconciliation">
      <h1 id="reconciliation-title">Reconciliation</h1>
      <p>The settlement bank&rsquo;s statements of the bank&rsquo;s own accounts, matched with the ledger&rsquo;s settlement entries.</p>
      <ExceptionsQueue />
      <StatementImport />
      <StatementsTable />
    </section>
  );
}
