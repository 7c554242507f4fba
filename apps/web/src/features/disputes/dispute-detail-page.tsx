import { Link, useParams } from 'react-router';
import { disputeReasonLabels, type DisputeDetail } from '@strongroom/contracts/disputes.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { useDispute } from './api/disputes.ts';
import { AnswerQuestion } from './answer-question.tsx';
import { DisputeDates } from './dispute-dates-facts.tsx';
import { formatBankDate } from './dispute-dates.ts';
import { DisputeEvidence } from './dispute-evidence.tsx';
import { DisputeLetters } from './dispute-letters.tsx';
import { DisputeTimeline, openQuestion } from './dispute-timeline.tsx';
import { disputeStatusWords, isOpen } from './dispute-words.ts';
import { WithdrawDispute } from './withdraw-dispute.tsx';
import './disputes.css';

function DisputeView({ detail }: { detail: DisputeDetail }) {
  const { dispute } = detail;
  const status = disputeStatusWords[dispute.status];
  const open = isOpen(dispute.status);
  const question = open ? openQuestion(detail.events) : null;
  return (
    <>
      <PageHeader title={dispute.transaction.description} actions={open ? <WithdrawDispute disputeId={dispute.id} /> : null}>
        <Badge tone={status.tone} as="p">
          {status.label}
        </Badge>
      </PageHeader>
      <DisputeDates dispute={dispute} className="dispute-dates" />
      {dispute.status === 'withdrawn' ? (
        <p className="dispute-dates">
          <Link to={`/disputes/new?transferId=${encodeURIComponent(dispute.transferId)}`}>Report this transaction again</Link>
        </p>
      ) : null}
      <FactList>
        <FactRow term="Amount">
          <MoneyAmount cents={dispute.transaction.amountCents} signed />
        </FactRow>
        <FactRow term="Transaction date">{formatBankDate(dispute.transaction.date)}</FactRow>
        <FactRow term="What went wrong">{disputeReasonLabels[dispute.reason]}</FactRow>
        <FactRow term="What you told us">
          <span className="dispute-review__text">{dispute.description}</span>
        </FactRow>
        <FactRow term="Reported on">{formatBankDate(dispute.receivedOn)}</FactRow>
        {dispute.cardReplaced ? <FactRow term="Your card">Frozen, and a new one ordered</FactRow> : null}
      </FactList>
      {question ? <AnswerQuestion disputeId={dispute.id} question={question} /> : null}
      <DisputeTimeline events={detail.events} />
      <DisputeLetters disputeId={dispute.id} letters={detail.letters} />
      <DisputeEvidence detail={detail} open={open} />
    </>
  );
}

/** /disputes/:id: one report, its status and dates, what happened, the letters and the evidence. Another customer's answers like a missing one. */
export default function DisputeDetailPage() {
  const { id = '' } = useParams();
  const detail = useDispute(id);
  return (
    <Page>
      <PageMeta title="Reported problem" description="One of the problems you reported." noIndex />
      <BackLink to="/disputes">Reported problems</BackLink>
      {detail.isPending ? <LoadingLine>Loading your report…</LoadingLine> : null}
      {detail.isError && isApiError(detail.error) && detail.error.status === 404 ? (
        <EmptyState title="We could not find this report" headingLevel={1} action={<Link to="/disputes">See your reported problems</Link>}>
          <p>The link may not be complete.</p>
        </EmptyState>
      ) : detail.isError ? (
        <LoadFailed title="We could not load this report" headingLevel={1} query={detail} />
      ) : null}
      {detail.data ? <DisputeView detail={detail.data} /> : null}
    </Page>
  );
}
