import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { useStaffMe } from '../api/staff-session.ts';
import { DisputeActionsPanel } from './dispute-actions-panel.tsx';
import { DisputeDeadlines, DisputeFiles, DisputeTimeline, DisputeTransaction, SameCounterparty } from './dispute-case-sections.tsx';
import { useStaffDispute } from './disputes-api.ts';
import { disputeStatusWords } from './dispute-words.ts';
import './disputes.css';

const backLink = <Link to="/ops/disputes">Back to the disputes</Link>;

/**
 * `/ops/disputes/:id` (`disputes.manage`): one case with the facts a decision needs on one screen:
 * the transaction, the payments to the same payee, the deadlines, the evidence and letters, the
 * timeline with staff reasons, and the actions its state allows.
 */
export default function DisputeCasePage() {
  const { id = '' } = useParams();
  const query = useStaffDispute(id);
  const staffId = useStaffMe().data?.staff.id;
  if (query.isPending) return <LoadingLine>Loading the case…</LoadingLine>;
  if (query.isError) {
    if (isApiError(query.error) && query.error.code === 'not_found')
      return <EmptyState title="This dispute does not exist" headingLevel={1} action={backLink} />;
    return <LoadFailed title="The dispute could not be loaded" query={query} headingLevel={1} />;
  }
  const detail = query.data;
  const { dispute } = detail;
  return (
    <section aria-labelledby="dispute-case-title" className="ops-page dispute-case">
      {backLink}
      <h1 id="dispute-case-title">
        {dispute.customer.name}: <MoneyAmount cents={dispute.amountCents} /> disputed
      </h1>
      <p>
        <strong>{disputeStatusWords[dispute.status]}</strong> · {dispute.transaction.description}
      </p>
      <DisputeActionsPanel dispute={dispute} staffId={staffId} />
      <div className="dispute-case__facts">
        <DisputeTransaction dispute={dispute} />
        <DisputeDeadlines dispute={dispute} />
      </div>
      <SameCounterparty payments={detail.sameCounterparty} />
      <DisputeFiles detail={detail} />
      <DisputeTimeline events={detail.events} />
    </section>
  );
}
