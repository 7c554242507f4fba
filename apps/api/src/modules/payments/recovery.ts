import type { Queryable } from '../../db/database.ts';
import { ledgerSideOf } from './kinds.ts';
import type { PaymentExecution } from './plan.ts';
import { findAccountById, type PaymentRow } from './repository.ts';

/**
 * What executing a payment's row needs, rebuilt after a crash from the row alone: its ledger side
 * from the kind's row in kinds.ts and the accounts the payment names, and who receives it. A
 * recovered payment saves no favourite (that was the request's to ask).
 */
export async function executionOf(db: Queryable, row: PaymentRow): Promise<PaymentExecution> {
  const from = row.from_account_id ? await findAccountById(db, row.from_account_id) : undefined;
  const to = row.to_account_id ? await findAccountById(db, row.to_account_id) : undefined;
  const ledger = ledgerSideOf(row.kind, {
    paymentId: row.id,
    fromLedgerAccountId: from?.ledger_account_id ?? null,
    // A push to a credit card of this bank credits the card's own ledger account, kept in the details.
    toLedgerAccountId: to?.ledger_account_id ?? row.details.cardLedgerAccountId ?? null,
  });
  // Only money paid to someone else at this bank has a recipient to notify.
  const recipientCustomerId = to && to.customer_id !== row.customer_id ? to.customer_id : (row.details.cardHolderId ?? null);
  return { ...ledger, recipientCustomerId, favorite: null };
}
