import { useState } from 'react';
import { Link } from 'react-router';
import { Printer, ReceiptText, SearchX } from 'lucide-react';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { useTransactions } from './api/get-transactions.ts';
import { HistoryFilters } from './history-filters.tsx';
import { MonthlyStatements } from './monthly-statements.tsx';
import { StatementDownloads } from './statement-downloads.tsx';
import { TransactionDetailsDialog } from './transaction-details-dialog.tsx';
import { TransactionList, TransactionTable } from '../../components/transactions/transaction-rows.tsx';
import { isDateRangeInOrder, useHistoryFilters } from './use-history-filters.ts';
import { useNarrowScreen } from '../../lib/use-narrow-screen.ts';
import { usePrintStatement } from './use-print-statement.ts';
import './history-page.css';

function countWords(count: number, more: boolean): string {
  const noun = count === 1 ? 'transaction' : 'transactions';
  return more ? `Showing the latest ${count} ${noun}; there are more.` : `Showing ${count} ${noun}.`;
}

/**
 * /transaction-history: every line of the customer's history, newest first, a page at a time, with
 * filters; each line opens the Details dialog (and its receipt). 'print statement' prints the list;
 * statements of any account and period download as PDF, CSV or OFX.
 */
export default function HistoryPage() {
  const filterState = useHistoryFilters();
  const { filters } = filterState;
  const accounts = useAccounts();
  const transactions = useTransactions(filters, isDateRangeInOrder(filters));
  const narrow = useNarrowScreen();
  const printing = usePrintStatement();
  const [opened, setOpened] = useState<Transaction | null>(null);
  const [dismissedErrorAt, setDismissedErrorAt] = useState(0);

  const rows = transactions.data?.pages.flatMap((page) => page.items) ?? [];
  const showError = transactions.isError && transactions.errorUpdatedAt !== dismissedErrorAt;

  // The seed: closing the details also hides the error dialog.
  function closeDetails() {
    setOpened(null);
    setDismissedErrorAt(transactions.errorUpdatedAt);
  }

  function body() {
    if (transactions.isPending) {
      return <LoadingLine>Loading your transactions…</LoadingLine>;
    }
    if (transactions.isError && rows.length === 0) {
      return <LoadFailed title="We could not load your transactions" query={transactions} />;
    }
    if (rows.length === 0) {
      return filterState.isFiltered ? (
        <EmptyState
          icon={<SearchX aria-hidden="true" size={28} />}
          title="No transactions match these filters"
          action={
            <Button variant="secondary" onClick={filterState.reset}>
              Reset filters
            </Button>
          }
        >
          <p>Try a wider date range, another account or category, or fewer words.</p>
        </EmptyState>
      ) : (
        <EmptyState icon={<ReceiptText aria-hidden="true" size={28} />} title="No transactions yet">
          <p>Money you receive, send, deposit or withdraw shows here, newest first.</p>
        </EmptyState>
      );
    }
    return (
      <>
        {narrow ? <TransactionList transactions={rows} onOpen={setOpened} /> : <TransactionTable transactions={rows} onOpen={setOpened} />}
        {transactions.hasNextPage ? (
          <div className="history__more">
            <Button variant="secondary" onClick={() => void transactions.fetchNextPage()} loading={transactions.isFetchingNextPage}>
              Load more
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <Page width="wide" className="history">
      <PageMeta title="History" description="Your transaction history, receipts and statements." noIndex />
      <PageHeader
        title="History"
        actions={
          <Button variant="secondary" className="history__print" onClick={printing.print} loading={printing.isWaiting}>
            {printing.isWaiting ? null : <Printer aria-hidden="true" size={18} />}
            <span className="history-seed-label">print statement</span>
          </Button>
        }
      />

      <HistoryFilters state={filterState} accounts={accounts.data ?? []} />

      <div className="history__results" aria-busy={transactions.isFetching && !transactions.isFetchingNextPage}>
        {body()}
        <p className="visually-hidden" role="status">
          {transactions.isSuccess ? countWords(rows.length, transactions.hasNextPage) : ''}
        </p>
      </div>

      <MonthlyStatements accountsQuery={accounts} />

      <StatementDownloads accounts={accounts.data ?? []} />

      {/* Issue 34: the reports start from a line's details; the reports themselves are found here. */}
      <p className="history__disputes">
        Something wrong with a transaction? Open it and choose Report a problem. <Link to="/disputes">Your reported problems</Link>
      </p>

      <TransactionDetailsDialog transaction={opened} onClose={closeDetails} />
      <ErrorDialog
        title="Your transactions could not be loaded"
        message={showError ? transactions.error.message : null}
        onClose={() => setDismissedErrorAt(transactions.errorUpdatedAt)}
      />
    </Page>
  );
}
