import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { ScheduledPayment, ScheduledPaymentDetail } from '@strongroom/contracts/scheduled-payments.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { updateScheduledPayment, useScheduleDetail } from './api/scheduled-payments.ts';
import { CancelSchedule } from './cancel-schedule.tsx';
import { OccurrenceList } from './occurrence-list.tsx';
import { ScheduleConfirmation } from './schedule-confirmation.tsx';
import { defaultsFromSchedule } from './schedule-defaults.ts';
import { ScheduleForm } from './schedule-form.tsx';
import { WithScheduleInputs } from './schedule-inputs.tsx';
import { scheduleStatusWords, whenSummary } from './schedule-words.ts';
import '../../components/payment/payment.css';
import './scheduled-payments.css';

/** Edit: the scheduling form filled in from the schedule, sent as `PUT /scheduled-payments/{id}`. */
function EditSchedule({ schedule, onDone }: { schedule: ScheduledPayment; onDone: (changed: ScheduledPayment) => void }) {
  return (
    <WithScheduleInputs>
      {({ accounts, billPayees, today }) => {
        const defaults = defaultsFromSchedule(schedule, today.earliestPaymentDate);
        return (
          <ScheduleForm
            accounts={accounts}
            billPayees={billPayees}
            today={today}
            defaults={defaults.form}
            recipientDefaults={defaults.recipient}
            send={updateScheduledPayment(schedule.id)}
            errorTitle="The schedule was not changed"
            onDone={onDone}
          />
        );
      }}
    </WithScheduleInputs>
  );
}

function ScheduleDetail({ detail }: { detail: ScheduledPaymentDetail }) {
  const { schedule } = detail;
  const [editing, setEditing] = useState(false);
  const [changed, setChanged] = useState<ScheduledPayment | null>(null);
  const status = scheduleStatusWords[schedule.status];
  const active = schedule.status === 'active';
  const actions = active ? (
    <div className="schedule-detail__actions">
      <Button variant="secondary" onClick={() => setEditing((value) => !value)} aria-expanded={editing}>
        {editing ? 'Stop editing' : 'Edit'}
      </Button>
      <CancelSchedule schedule={schedule} />
    </div>
  ) : null;
  return (
    <>
      <PageHeader title={schedule.description} lead={`${formatMoney(schedule.payment.amountCents)}. ${whenSummary(schedule)}.`} actions={actions}>
        <Badge tone={status.tone} as="p">
          {status.label}
        </Badge>
      </PageHeader>
      {changed ? <ScheduleConfirmation schedule={changed} title="Schedule changed" /> : null}
      {editing ? (
        <EditSchedule
          schedule={schedule}
          onDone={(result) => {
            setEditing(false);
            setChanged(result);
          }}
        />
      ) : null}
      <section aria-labelledby="occurrences-title" className="schedule-section">
        <h2 id="occurrences-title">Payments</h2>
        <OccurrenceList detail={detail} />
      </section>
    </>
  );
}

/** /payments/scheduled/:id: one schedule, its payments, Skip, Edit and Cancel. Another customer's answers like a missing one. */
export default function ScheduleDetailPage() {
  const { id = '' } = useParams();
  const detail = useScheduleDetail(id);
  return (
    <Page>
      <PageMeta title="Scheduled payment" description="One of your scheduled payments." noIndex />
      <BackLink to="/payments/scheduled">Scheduled payments</BackLink>
      {detail.isPending ? <LoadingLine>Loading the schedule…</LoadingLine> : null}
      {detail.isError && isApiError(detail.error) && detail.error.status === 404 ? (
        <EmptyState title="We could not find this schedule" headingLevel={1} action={<Link to="/payments/scheduled">See your scheduled payments</Link>}>
          <p>It may have been removed, or the link is not complete.</p>
        </EmptyState>
      ) : detail.isError ? (
        <LoadFailed title="We could not load this schedule" headingLevel={1} query={detail} />
      ) : null}
      {detail.data ? <ScheduleDetail detail={detail.data} /> : null}
    </Page>
  );
}
