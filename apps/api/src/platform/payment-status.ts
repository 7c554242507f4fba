import type { PaymentStatus } from '@strongroom/contracts/payments.ts';

/** A payment's status as stored: the customer-facing ones, plus two that no customer ever sees. */
export type StoredPaymentStatus = PaymentStatus | 'creating' | 'failed';

/** The status a customer sees; a payment still being created or one that failed is never shown. */
export function visibleStatus(status: StoredPaymentStatus): PaymentStatus {
  if (status === 'creating' || status === 'failed') throw new Error(`a ${status} payment is not shown to customers`);
  return status;
}
