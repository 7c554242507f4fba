import { resultMessages, transferredMessage } from '@strongroom/contracts/messages.ts';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { formatDate } from '../../../lib/dates.ts';
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

/**
 * The result popup's words say what happened, no more: '{amount} transferred successfully' only when
 * the money has moved; on its way (with the day it settles), under review, refused or returned otherwise.
 */
export function transferSuccessTitle(payment: Payment): string {
  const amount = formatMoney(payment.amountCents);
  switch (payment.status) {
    case 'completed':
      return transferredMessage(amount);
    case 'pending':
      return payment.expectedSettlementAt
        ? `Your payment of ${amount} is on its way: it settles by ${formatDate(payment.expectedSettlementAt)}`
        : `Your payment of ${amount} is on its way`;
    case 'in_review':
      return `We are reviewing your payment of ${amount}`;
    case 'rejected':
      return `Your payment of ${amount} was refused`;
    case 'returned':
      return `Your payment of ${amount} was returned`;
  }
}

/** A withdrawal: 'Withdrawal successful' once paid out; otherwise what is happening to it. */
export function withdrawalResultTitle(payment: Payment): string {
  const amount = formatMoney(payment.amountCents);
  switch (payment.status) {
    case 'completed':
      return resultMessages.withdrawalAccepted;
    case 'pending':
      return payment.expectedSettlementAt
        ? `Your withdrawal of ${amount} is on its way: it settles by ${formatDate(payment.expectedSettlementAt)}`
        : `Your withdrawal of ${amount} is on its way`;
    case 'in_review':
      return `We are reviewing your withdrawal of ${amount}`;
    case 'rejected':
      return `Your withdrawal of ${amount} was refused`;
    case 'returned':
      return `Your withdrawal of ${amount} was returned`;
  }
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
