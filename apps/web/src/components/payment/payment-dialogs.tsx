import { resultMessages, transferredMessage } from '@strongroom/contracts/messages.ts';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { ErrorDialog } from '../ui/error-dialog.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { formatDate } from '../../lib/dates.ts';
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
 * The result popup's words say what happened, no more: the done words only when the money has
 * moved; on its way (with the day it settles), under review, refused or returned otherwise.
 */
function resultTitle(payment: Payment, noun: 'payment' | 'withdrawal', done: (amount: string) => string): string {
  const amount = formatMoney(payment.amountCents);
  switch (payment.status) {
    case 'completed':
      return done(amount);
    case 'pending':
      return payment.expectedSettlementAt
        ? `Your ${noun} of ${amount} is on its way: it settles by ${formatDate(payment.expectedSettlementAt)}`
        : `Your ${noun} of ${amount} is on its way`;
    case 'in_review':
      return `We are reviewing your ${noun} of ${amount}`;
    case 'rejected':
      return `Your ${noun} of ${amount} was refused`;
    case 'returned':
      return `Your ${noun} of ${amount} was returned`;
  }
}

/** A transfer: '{amount} transferred successfully' once the money moved. */
export function transferSuccessTitle(payment: Payment): string {
  return resultTitle(payment, 'payment', transferredMessage);
}

/** A withdrawal: 'Withdrawal successful' once paid out. */
export function withdrawalResultTitle(payment: Payment): string {
  return resultTitle(payment, 'withdrawal', () => resultMessages.withdrawalAccepted);
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
