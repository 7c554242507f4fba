import { useState } from 'react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useScheduleActions } from './api/scheduled-payments.ts';
import { formatDay } from './schedule-dates.ts';
import { scheduleErrorMessage } from './schedule-words.ts';

export interface SkipOccurrenceProps {
  scheduleId: string;
  date: string;
  amountCents: number;
  description: string;
}

/** Skip one payment of a series, after a confirmation that says the rest go on. */
export function SkipOccurrence({ scheduleId, date, amountCents, description }: SkipOccurrenceProps) {
  const [open, setOpen] = useState(false);
  const { skip } = useScheduleActions();
  const toast = useToast();
  const day = formatDay(date, { withYear: true });
  const amount = formatMoney(amountCents);
  function close() {
    setOpen(false);
    skip.reset();
  }
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Skip the payment of ${amount} on ${day}`}>
        Skip
      </Button>
      <ConfirmDialog
        open={open}
        title="Skip this payment?"
        description={
          <p>
            {description}: {amount} on {day} will not be paid. The schedule goes on: the payments after it stay as they are.
          </p>
        }
        confirmLabel={`Skip the payment on ${day}`}
        busy={skip.isPending}
        onCancel={close}
        onConfirm={() =>
          skip.mutate(
            { scheduleId, date },
            {
              onSuccess: () => {
                close();
                toast.show(`The payment on ${day} is skipped.`, 'success');
              },
            },
          )
        }
      >
        {skip.error ? (
          <Notice tone="error" role="alert">
            <p>{scheduleErrorMessage(skip.error)}</p>
          </Notice>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
