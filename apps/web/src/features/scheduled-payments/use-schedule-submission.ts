import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CreateScheduledPaymentRequest, ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useStepUpRequest, type SendMoneyRequest } from '../../components/step-up/use-step-up-request.ts';
import type { ConfirmRow } from '../../components/payment/confirm-payment-dialog.tsx';
import { scheduleKeys } from './api/scheduled-payments.ts';
import { scheduleErrorMessage } from './schedule-words.ts';
import type { ScheduleFormValues } from './schedule-form-schema.ts';

export interface ReviewedSchedule {
  body: CreateScheduledPaymentRequest;
  rows: readonly ConfirmRow[];
}

/** The server's field names (400 validation_failed) and the form's field that shows each. */
const formFieldOf: Readonly<Record<string, keyof ScheduleFormValues>> = {
  startDate: 'startDate',
  endDate: 'endDate',
  count: 'count',
  dayOfMonth: 'dayOfMonth',
  'payment.fromAccountId': 'fromAccountId',
  'payment.toAccountId': 'toAccountId',
  'payment.billPayeeId': 'billPayeeId',
  'payment.amountCents': 'amount',
  'payment.message': 'message',
};

export type PlaceFieldError = (field: keyof ScheduleFormValues, message: string) => void;

/**
 * The schedule's review and submission: Continue puts it in review, Confirm sends it with one
 * Idempotency-Key, through the step-up code when the payment needs one (as `POST /transfers`).
 * A field message goes under its field; any other error to the error dialog, in words.
 */
export function useScheduleSubmission(send: SendMoneyRequest<CreateScheduledPaymentRequest, ScheduledPayment>, onDone: (schedule: ScheduledPayment) => void) {
  const stepUp = useStepUpRequest(send);
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReviewedSchedule | null>(null);
  const [errorMessage, setErrorMessage] = useState<string | null>(null);

  async function confirm(placeFieldError: PlaceFieldError) {
    if (!pending) return;
    const outcome = await stepUp.submit(pending.body);
    if (outcome.status === 'cancelled') return;
    setPending(null);
    if (outcome.status === 'done') {
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
      onDone(outcome.result);
      return;
    }
    const fields = outcome.error instanceof ApiError ? Object.entries(outcome.error.fields) : [];
    const placed = fields.filter(([field]) => formFieldOf[field] !== undefined);
    for (const [field, message] of placed) placeFieldError(formFieldOf[field] ?? 'startDate', message);
    if (placed.length === 0) setErrorMessage(scheduleErrorMessage(outcome.error));
  }

  return {
    pending,
    review: setPending,
    modify: () => setPending(null),
    confirm,
    isPending: stepUp.isPending,
    stepUpDialog: stepUp.dialog,
    errorMessage,
    closeError: () => setErrorMessage(null),
  };
}
