import { formatMoney } from '@strongroom/contracts/money.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';

import type { PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { hasPaidPayee } from '../review-repository.ts';
import { findAccountByNumber } from '../party-repository.ts';
import { fieldError, sourceAccount } from './checks.ts';

const noAccountAtThisBank = 'No account at this bank has this number';

/**
 * To an account at this bank by its number: posted at once. Paying someone else needs a step-up
 * the first time (D10) and is subject to D1's review rules.
 */
export async function planInternalTransfer(context: PlanContext, body: Extract<TransferBody, { kind: 'internal' }>): Promise<PaymentPlan> {
  const { bankRoutingNumber } = businessConstants;
  const from = await sourceAccount(context, body.fromAccountId);
  const to = await findAccountByNumber(context.db, body.toAccountNumber);
  if (!to || to.status === 'closed') throw fieldError('toAccountNumber', noAccountAtThisBank);
  if (to.id === from.id) throw fieldError('toAccountNumber', 'Choose a different account to transfer to');
  const amountCents = BigInt(body.amountCents);
  const payeeKey = `account:${to.number}`;
  const toSomeoneElse = to.customer_id !== context.customerId;
  return {
    payment: {
      customerId: context.customerId,
      kind: 'internal',
      fromAccountId: from.id,
      toAccountId: to.id,
      amountCents,
      counterpartyName: body.accountName,
      counterpartyAccountNumber: to.number,
      counterpartyRouteNumber: bankRoutingNumber,
      details: { senderName: await context.customerName },
      payeeKey,
      message: body.message,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: to.ledger_account_id, toOwedLedgerAccountId: to.owed_ledger_account_id },
    needsStepUp: toSomeoneElse && !(await hasPaidPayee(context.db, context.customerId, payeeKey)),
    reviewable: toSomeoneElse,
    purpose: `a transfer of ${formatMoney(amountCents)}`,
    recipientCustomerId: to.customer_id,
    favorite: body.addToFavorites
      ? {
          bankType: 'mybank',
          bankName: context.config.bankName,
          accountName: body.accountName,
          accountNumber: to.number,
          routeNumber: bankRoutingNumber,
          nameOfCountry: 'United States',
          accountType: to.type,
        }
      : null,
  };
}
