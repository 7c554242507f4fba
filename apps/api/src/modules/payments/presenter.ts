import type { Payment, PaymentStatus } from '@strongroom/contracts/payments.ts';
import type { TransactionCategory } from '@strongroom/contracts/transactions.ts';
import { centsToJson } from '../../platform/money.ts';
import type { PaymentRow, StoredPaymentStatus } from './repository.ts';

export function visibleStatus(status: StoredPaymentStatus): PaymentStatus {
  if (status === 'creating' || status === 'failed') throw new Error(`a ${status} payment is not shown to customers`);
  return status;
}

/**
 * The payment as its sender sees it. The receiving account's id at this bank is someone else's
 * resource, so it is shown only when it is the sender's own (an own transfer).
 */
export function presentPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    kind: row.kind,
    status: visibleStatus(row.status),
    amountCents: centsToJson(row.amount_cents),
    fromAccountId: row.from_account_id,
    toAccountId: row.kind === 'own' || row.kind === 'deposit' || row.kind === 'funding' ? row.to_account_id : null,
    counterparty: {
      name: row.counterparty_name,
      accountNumber: row.counterparty_account_number,
      bankName: row.counterparty_bank_name,
      routeNumber: row.counterparty_route_number,
      country: row.counterparty_country,
    },
    message: row.message,
    statusReason: row.status_reason,
    expectedSettlementAt: row.status === 'pending' && row.settle_at ? row.settle_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** The seed's history categories: Transfer, Debit and withdraw are money out (red); the rest green. */
export function categoryOf(row: Pick<PaymentRow, 'kind'>, side: 'in' | 'out'): TransactionCategory {
  if (side === 'in') {
    if (row.kind === 'deposit') return 'Deposit';
    if (row.kind === 'funding') return 'Funding';
    return 'Credit';
  }
  if (row.kind === 'card') return 'Debit';
  if (row.kind === 'withdrawal') return 'withdraw';
  return 'Transfer';
}

/** The seed shows the payment's reason as its description; without one, who it was with. */
export function descriptionOf(
  row: Pick<PaymentRow, 'kind' | 'message' | 'counterparty_name' | 'counterparty_bank_name' | 'details'>,
  side: 'in' | 'out',
): string {
  if (row.message.trim().length > 0) return row.message;
  if (row.kind === 'funding') return 'Opening deposit';
  if (side === 'in') return `From ${row.details.senderName ?? row.counterparty_name}`;
  return row.counterparty_bank_name ? `To ${row.counterparty_name}, ${row.counterparty_bank_name}` : `To ${row.counterparty_name}`;
}

/** Where a payment's notification leads: the history screen lists the payment with its status. */
export const paymentNotificationLink = '/transaction-history';
