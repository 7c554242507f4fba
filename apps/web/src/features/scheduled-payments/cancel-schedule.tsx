import { useState } from 'react';
import type { ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useScheduleActions } from './api/scheduled-payments.ts';
import { formatDay } from './schedule-dates.ts';
import { scheduleErrorMessage } from './schedule-words.ts';

function dayList(dates: readonly string[]): string {
  return dates.map((date) => formatDay(date, { withYear: true })).join(', ');
}

/** What cancelling does, in words: which payments stop, and that one past its cut-off still goes. */
function CancelConsequences({ schedule }: { schedule: ScheduledPayment }) {
  const cancelled = schedule.upcoming.filter((occurrence) => occurrence.changeable).map((occurrence) => occurrence.date);
  const stillGoes = schedule.upcoming.filter((occurrence) => !occurrence.changeable).map((occurrence) => occurrence.date);
  return (
    <>
      <p>
        {cancelled.length > 0
          ? `These payments are cancelled: ${dayList(cancelled)}${schedule.endDate === null && schedule.count === null ? ', and every one after them' : ''}.`
          : 'No payment is left to cancel in the next 90 days; the schedule stops.'}
      </p>
      {stillGoes.length > 0 ? <p>{`Past today’s cut-off, ${dayList(stillGoes)} is already on its way and still goes.`}</p> : null}
      <p>This cannot be undone: to pay again, schedule a new payment.</p>
    </>
  );
}

/** Cancel the rest of a series, after a confirmation that lists what stops. */
export function CancelSchedule({ schedule }: { schedule: ScheduledPayment }) {
  const [open, setOpen] = useState(false);
  const { cancel } = useScheduleActions();
  const toast = useToast();
  function close() {
    setOpen(false);
    cancel.reset();
  }
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Cancel the series
      </Button>
      <ConfirmDialog
        open={open}
        title="Cancel this schedule?"
        description={<CancelConsequences schedule={schedule} />}
        confirmLabel="Cancel the payments"
        confirmVariant="danger"
        cancelLabel="Keep the schedule"
        busy={cancel.isPending}
        onCancel={close}
        onConfirm={() =>
          cancel.mutate(schedule.id, {
            onSuccess: () => {
              close();
              toast.show('The schedule is cancelled.', 'success');
            },
          })
        }
      >
        {cancel.error ? (
          <Notice tone="error" role="alert">
            <p>{scheduleErrorMessage(cancel.error)}</p>
          </Notice>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
