import { Link } from 'react-router';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { disputeReasonLabels } from '@strongroom/contracts/disputes.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { useDisputes } from './api/disputes.ts';
import { DisputeDates } from './dispute-dates-facts.tsx';
import { formatBankDate } from './dispute-dates.ts';
import { disputeStatusWords } from './dispute-words.ts';
import './disputes.css';

function DisputeList() {
  const disputes = useDisputes();
  if (disputes.isPending) return <LoadingLine>Loading your reported problems…</LoadingLine>;
  if (disputes.isError) return <LoadFailed title="We could not load your reported problems" query={disputes} />;
  if (disputes.data.items.length === 0) {
    return (
      <EmptyState title="You have not reported any problems" action={<Link to="/transaction-history">Open your history</Link>}>
        <p>To report one, open the transaction in your history and choose Report a problem.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="dispute-rows" aria-label="Your reports">
      {disputes.data.items.map((dispute) => {
        const status = disputeStatusWords[dispute.status];
        return (
          <li key={dispute.id} className="dispute-row">
            <div className="dispute-row__main">
              <Link to={`/disputes/${encodeURIComponent(dispute.id)}`} className="dispute-row__title">
                {dispute.transaction.description}
              </Link>
              <Badge tone={status.tone} size="xs">
                {status.label}
              </Badge>
              <span className="dispute-row__meta">
                {`${disputeReasonLabels[dispute.reason]}. Transaction of ${formatBankDate(dispute.transaction.date)}, reported ${formatBankDate(dispute.receivedOn)}.`}
              </span>
              <DisputeDates dispute={dispute} className="dispute-row__dates" />
            </div>
            <span className="dispute-row__amount tabular">{formatMoney(dispute.transaction.amountCents)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** /disputes: the problems the customer reported, newest first, each with its status and the dates it will change by. */
export default function DisputesPage() {
  return (
    <Page>
      <PageMeta title="Reported problems" description="The transactions you reported to us, and where each report stands." noIndex />
      <BackLink to="/transaction-history">History</BackLink>
      <PageHeader
        title="Reported problems"
        lead="Transactions you told us you did not make or did not get. We investigate each one and answer by the dates shown."
      />
      <DisputeList />
    </Page>
  );
}
