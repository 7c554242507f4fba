import type { Payment, PaymentStatus } from '@strongroom/contracts/payments.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { paymentStatusWords, resultMessages } from '@strongroom/contracts/messages.ts';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { Badge, type BadgeTone } from '../ui/badge.tsx';

/** A status's colour by what it means for the customer: moved, on its way, held for a check, refused or sent back. */
const paymentStatusTones: Readonly<Record<PaymentStatus, BadgeTone>> = {
  completed: 'success',
  pending: 'neutral',
  in_review: 'warning',
  rejected: 'danger',
  returned: 'danger',
};

/** A deposit is pulled from the customer's other bank and counts only once it has cleared (decision 021). */
function depositExplanation(payment: Payment): string[] | null {
  if (payment.kind !== 'deposit') return null;
  switch (payment.status) {
    case 'pending': {
      const onItsWay = 'It is on its way from your other bank. It is added to your balance when it clears.';
      if (!payment.expectedSettlementAt) return [onItsWay];
      return [`Available on ${formatDate(payment.expectedSettlementAt)}.`, onItsWay];
    }
    case 'completed':
      return ['The money has moved.'];
    case 'returned':
      // The server's reason is a sentence that says whether anything was taken back.
      return [payment.statusReason ?? 'Your other bank sent it back.'];
    default:
      return null;
  }
}

function pendingText(payment: Payment): string {
  if (payment.expectedSettlementAt) return `It is on its way and expected by ${formatDateTime(payment.expectedSettlementAt)}.`;
  const { min, max } = businessConstants.achSettlementBusinessDays;
  return `It is on its way. Payments through other banks take ${min} to ${max} business days, wires up to ${businessConstants.wireSettlementHours} hours.`;
}

/** What the status means for the customer, in sentences. */
function explanation(payment: Payment): string[] {
  const forDeposit = depositExplanation(payment);
  if (forDeposit) return forDeposit;
  switch (payment.status) {
    case 'completed':
      return ['The money has moved.'];
    case 'pending':
      return [pendingText(payment)];
    case 'in_review':
      // docs/product.md D1: a held payment waits for a member of staff; the customer owes nothing.
      return [
        'We hold some payments for a short check by our staff before they go, to protect you from fraud. The money is set aside in your account meanwhile.',
        'You do not need to do anything. We will let you know when it has been sent, or, if we stop it, why, and the money will be back in your account.',
        `${resultMessages.fraudWarning}.`,
      ];
    case 'rejected':
      return [`Reason: ${payment.statusReason ?? 'not given'}.`, 'The money is back in your account.'];
    case 'returned':
      return [`The receiving bank sent it back. Reason: ${payment.statusReason ?? 'not given'}.`, 'The money is back in your account.'];
  }
}

/** A payment's status by word and by colour, with what it means. */
export function PaymentStatusView({ payment }: { payment: Payment }) {
  return (
    <div className="payment-status">
      <p className="payment-status__line">
        Status:{' '}
        <Badge tone={paymentStatusTones[payment.status]} dot>
          {paymentStatusWords[payment.status]}
        </Badge>
      </p>
      {explanation(payment).map((sentence) => (
        <p key={sentence} className="payment-status__text">
          {sentence}
        </p>
      ))}
    </div>
  );
}
