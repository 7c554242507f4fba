import { formatMoney } from '@strongroom/contracts/money.ts';
import { AppError } from '../../../platform/errors.ts';

import type { PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { findAccountsById } from '../party-repository.ts';
import { checkSourceAccount, fieldError, noRecipient, noSuchAccount } from './checks.ts';

/** Between two accounts of the same customer: no step-up, no review, posted at once. */
export async function planOwnTransfer(context: PlanContext, body: Extract<TransferBody, { kind: 'own' }>): Promise<PaymentPlan> {
  // Both accounts in one statement.
  const [fromRead, to] = await findAccountsById(context.db, [body.fromAccountId, body.toAccountId]);
  const from = await checkSourceAccount(context, fromRead);
  if (!to || to.customer_id !== context.customerId || to.status === 'closed') throw new AppError('not_found', noSuchAccount);
  if (to.id === from.id) throw fieldError('toAccountId', 'Choose a different account to transfer to');
  const amountCents = BigInt(body.amountCents);
  return {
    payment: {
      customerId: context.customerId,
      kind: 'own',
      fromAccountId: from.id,
      toAccountId: to.id,
      amountCents,
      counterpartyName: to.name,
      counterpartyAccountNumber: to.number,
      counterpartyBankName: null,
      message: body.message,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: to.ledger_account_id, toOwedLedgerAccountId: to.owed_ledger_account_id },
    needsStepUp: false,
    reviewable: false,
    purpose: `a transfer of ${formatMoney(amountCents)}`,
    ...noRecipient,
  };
}
