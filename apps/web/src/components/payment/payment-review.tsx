import { useState, type FormEvent, type ReactNode } from 'react';
import type { Payment, PaymentResponse } from '@strongroom/contracts/payments.ts';
import { Button } from '../ui/button.tsx';
import type { SendMoneyRequest } from '../step-up/use-step-up-request.ts';
import { ConfirmPaymentDialog, type ConfirmRow } from './confirm-payment-dialog.tsx';
import { PaymentDialogs } from './payment-dialogs.tsx';
import { usePaymentSubmission, type PaymentSubmissionState, type PaymentSubmitOptions } from './use-payment-submission.ts';

/** What the confirmation step shows and, once confirmed, sends. */
export interface ReviewedPayment<Body> {
  body: Body;
  rows: readonly ConfirmRow[];
}

export interface PaymentReviewOptions extends PaymentSubmitOptions {
  /** The money moved: clear the form for the next payment. */
  onDone: () => void;
}

/**
 * A money form's second step: what the form checked waits for the customer's Confirm (`review`),
 * Modify goes back with everything typed kept, and Confirm submits it (step-up included). A
 * cancelled code keeps the review open; any other answer closes it.
 */
export function usePaymentReview<Body, Pending>(send: SendMoneyRequest<Body, PaymentResponse>, { placeFieldErrors, onDone }: PaymentReviewOptions) {
  const submission = usePaymentSubmission(send);
  const [pending, setPending] = useState<Pending | null>(null);

  async function confirm(body: Body) {
    const result = await submission.submit(body, { placeFieldErrors });
    if (result === 'cancelled') return;
    setPending(null);
    if (result === 'done') onDone();
  }

  return { submission, pending, review: setPending, modify: () => setPending(null), confirm };
}

/** What the review's dialogs need of `usePaymentReview`. */
export interface PaymentReview<Body> {
  submission: PaymentSubmissionState;
  modify: () => void;
  confirm: (body: Body) => Promise<void>;
}

export interface PaymentReviewDialogsProps<Body> {
  review: PaymentReview<Body>;
  /** The payment to confirm; null while the form is being filled in. */
  payment: ReviewedPayment<Body> | null;
  /** 'Confirm the transfer'. */
  title: string;
  successTitle: (payment: Payment) => string;
  /** 'The transfer was not sent'. */
  errorTitle: string;
  confirmDisabled?: boolean;
  /** Between the details and the buttons, as in `ConfirmPaymentDialog`. */
  children?: ReactNode;
}

/** The dialogs of a reviewed payment: the confirmation, then the step-up code, the result and the error. */
export function PaymentReviewDialogs<Body>({ review, payment, title, successTitle, errorTitle, confirmDisabled, children }: PaymentReviewDialogsProps<Body>) {
  return (
    <>
      <ConfirmPaymentDialog
        open={payment !== null}
        title={title}
        rows={payment?.rows ?? []}
        confirming={review.submission.isPending}
        confirmDisabled={confirmDisabled}
        onModify={review.modify}
        onConfirm={() => {
          if (payment) void review.confirm(payment.body);
        }}
      >
        {children}
      </ConfirmPaymentDialog>
      <PaymentDialogs submission={review.submission} successTitle={successTitle} errorTitle={errorTitle} />
    </>
  );
}

export interface MoneyReviewFormProps<Body> extends Omit<PaymentReviewDialogsProps<Body>, 'children'> {
  /** The form's accessible name: 'Transfer within my accounts'. */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The form's fields. */
  children: ReactNode;
  /** Shown in the confirmation between the details and the buttons. */
  reviewNotice?: ReactNode;
}

/**
 * A money form in two steps: its fields and Continue, which checks them and opens the review
 * (`usePaymentReview`), then the dialogs of the confirmation and of the submission.
 */
export function MoneyReviewForm<Body>({ label, onSubmit, children, reviewNotice, ...dialogs }: MoneyReviewFormProps<Body>) {
  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label={label}>
        {children}
        <div className="money-form__actions">
          <Button type="submit" size="lg">
            Continue
          </Button>
        </div>
      </form>
      <PaymentReviewDialogs {...dialogs}>{reviewNotice}</PaymentReviewDialogs>
    </>
  );
}
