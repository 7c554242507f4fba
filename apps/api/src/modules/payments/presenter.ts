import type { Payment } from '@strongroom/contracts/payments.ts';
import { centsToJson } from '../../platform/money.ts';
import { visibleStatus } from '../../platform/payment-status.ts';
import type { PaymentRow } from './repository.ts';

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
    counterparty: counterpartyOf(row),
    message: row.message,
    statusReason: row.status_reason,
    expectedSettlementAt: row.status === 'pending' && row.settle_at ? row.settle_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Who was paid. A bill payment names the biller and the customer's account there, masked
 * (`••••4821`): the biller's own bank account, where the ACH credit goes, is the bank's business.
 */
function counterpartyOf(row: PaymentRow): Payment['counterparty'] {
  if (row.kind === 'bill') {
    return { name: row.counterparty_name, accountNumber: `••••${row.details.accountEnding ?? ''}`, bankName: null, routeNumber: null, country: null };
  }
  return {
    name: row.counterparty_name,
    accountNumber: row.counterparty_account_number,
    bankName: row.counterparty_bank_name,
    routeNumber: row.counterparty_route_number,
    country: row.counterparty_country,
  };
}

/** Where a payment's notification leads: the history screen lists the payment with its status. */
export const paymentNotificationLink = '/transaction-history';
