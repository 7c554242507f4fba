import { transferredMessage } from '@strongroom/contracts/messages.ts';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { StepUpDialog } from '../step-up/step-up-dialog.tsx';
import { PaymentResultDialog } from './payment-result-dialog.tsx';
import type { PaymentSubmissionState } from './use-payment-submission.ts';

export interface PaymentDialogsProps {
  submission: PaymentSubmissionState;
  successTitle: (payment: Payment) => string;
  /** 'The transfer was not sent'. */
  errorTitle: string;
  follow?: boolean;
}

/** The seed's transfer popup: '{amount} transferred successful'. */
export function transferSuccessTitle(payment: Payment): string {
  return transferredMessage(formatMoney(payment.amountCents));
}

/** The dialogs of a submission: the step-up code, the success popup and the error. */
export function PaymentDialogs({ submission, successTitle, errorTitle, follow = false }: PaymentDialogsProps) {
  return (
    <>
      <StepUpDialog {...submission.stepUpDialog} />
      <PaymentResultDialog payment={submission.completed} title={successTitle} follow={follow} onClose={submission.closeResult} />
      <ErrorDialog title={errorTitle} message={submission.errorMessage} onClose={submission.closeError} />
    </>
  );
}
