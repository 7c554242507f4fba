import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Payment, PaymentResponse } from '@strongroom/contracts/payments.ts';
import { ApiError } from '../../lib/api-client.ts';
import type { StepUpDialogProps } from '../step-up/step-up-dialog.tsx';
import { useStepUpRequest, type SendMoneyRequest } from '../step-up/use-step-up-request.ts';
import { invalidateMoneyQueries } from './invalidate-money-queries.ts';

/** A failure that is not the API's: the answer came but could not be read, so the money may have moved. */
const unreadableAnswerMessage = 'We could not read the bank’s answer. Please look at your history before you try again.';

export type PaymentSubmitResult = 'done' | 'cancelled' | 'failed';

export interface PaymentSubmitOptions {
  /** Puts the server's field messages under the form's fields; answers whether it placed any. */
  placeFieldErrors?: (error: unknown) => boolean;
}

/** What the dialogs of a submission show, whatever its body. */
export interface PaymentSubmissionState {
  isPending: boolean;
  stepUpDialog: StepUpDialogProps;
  completed: Payment | null;
  closeResult: () => void;
  errorMessage: string | null;
  closeError: () => void;
}

/**
 * One money screen's submission: the step-up flow, then the success popup with the payment, or
 * the server's message in the error dialog. Render `<PaymentDialogs submission={...} />`.
 */
export function usePaymentSubmission<Body>(send: SendMoneyRequest<Body, PaymentResponse>) {
  const stepUp = useStepUpRequest(send);
  const queryClient = useQueryClient();
  const [completed, setCompleted] = useState<Payment | null>(null);
  const [errorMessage, setErrorMessage] = useState<string | null>(null);

  async function submit(body: Body, { placeFieldErrors }: PaymentSubmitOptions = {}): Promise<PaymentSubmitResult> {
    const outcome = await stepUp.submit(body);
    if (outcome.status === 'done') {
      setCompleted(outcome.result.transfer);
      void invalidateMoneyQueries(queryClient);
      return 'done';
    }
    if (outcome.status === 'failed' && !placeFieldErrors?.(outcome.error)) {
      setErrorMessage(outcome.error instanceof ApiError ? outcome.error.message : unreadableAnswerMessage);
    }
    return outcome.status;
  }

  const state: PaymentSubmissionState = {
    isPending: stepUp.isPending,
    stepUpDialog: stepUp.dialog,
    completed,
    closeResult: () => setCompleted(null),
    errorMessage,
    closeError: () => setErrorMessage(null),
  };
  return { submit, ...state };
}
