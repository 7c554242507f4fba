import { Link, useSearchParams } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { useReportedTransaction } from './api/disputes.ts';
import { ReportProblem } from './report-problem.tsx';
import './disputes.css';

function NoTransaction() {
  return (
    <EmptyState title="Which transaction is it about?" action={<Link to="/transaction-history">Open your history</Link>}>
      <p>Open the transaction in your history, then choose Report a problem in its details.</p>
    </EmptyState>
  );
}

/** /disputes/new?transferId=: report a problem with one of the customer's transactions (an error notice under Regulation E). */
export default function ReportProblemPage() {
  const [search] = useSearchParams();
  const transferId = search.get('transferId') ?? '';
  const transaction = useReportedTransaction(transferId);
  return (
    <Page>
      <PageMeta title="Report a problem" description="Tell us about a transaction you did not make or did not get." noIndex />
      <BackLink to="/transaction-history">History</BackLink>
      <PageHeader
        title="Report a problem"
        lead="Tell us about a payment you did not make or allow, a wrong amount, a double charge, or something you paid for and did not get. We answer within the dates the law sets."
      />
      {transferId === '' ? <NoTransaction /> : null}
      {transferId !== '' && transaction.isPending ? <LoadingLine>Loading the transaction…</LoadingLine> : null}
      {transaction.isError && isApiError(transaction.error) && transaction.error.status === 404 ? (
        <NoTransaction />
      ) : transaction.isError ? (
        <LoadFailed title="We could not load this transaction" query={transaction} />
      ) : null}
      {transaction.data ? <ReportProblem transaction={transaction.data.transaction} /> : null}
    </Page>
  );
}
