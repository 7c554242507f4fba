import { formatMoney } from '@strongroom/contracts/money.ts';
import { paymentKinds } from '../kinds.ts';
import type { PaymentPlan, PlanContext, WithdrawalBody } from '../plan.ts';
import { noRecipient, sourceAccount } from './checks.ts';

/** A wire to an account at another bank: always a step-up, and D1's review rules apply. */
export async function planWithdrawal(context: PlanContext, body: WithdrawalBody): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const amountCents = BigInt(body.amountCents);
  return {
    payment: {
      customerId: context.customerId,
      kind: 'withdrawal',
      fromAccountId: from.id,
      toAccountId: null,
      amountCents,
      counterpartyName: body.accountName,
      counterpartyAccountNumber: body.accountNumber,
      counterpartyBankName: body.nameOfBank,
      counterpartyRouteNumber: body.routeNumber,
      counterpartyCountry: body.country,
      details: { stateName: body.stateName, bankAddress: body.bankAddress },
      payeeKey: `bank:${body.routeNumber}:${body.accountNumber}`,
      message: `Withdrawal to ${body.nameOfBank}`,
      rail: paymentKinds.withdrawal.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: null },
    needsStepUp: true,
    reviewable: true,
    purpose: `a withdrawal of ${formatMoney(amountCents)}`,
    ...noRecipient,
  };
}
