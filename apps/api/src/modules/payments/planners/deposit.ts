import { formatMoney } from '@strongroom/contracts/money.ts';
import { paymentKinds } from '../../money/service.ts';
import type { DepositBody, PaymentPlan, PlanContext } from '../plan.ts';
import { noRecipient, ownAccount, verifiedFundingSource } from './checks.ts';

/** Money pulled by ACH from a verified account of the customer's at another bank (docs/product.md section 6). */
export async function planDeposit(context: PlanContext, body: DepositBody): Promise<PaymentPlan> {
  const account = await ownAccount(context, body.accountId);
  const source = await verifiedFundingSource(context, body.fundingSourceId);
  const amountCents = BigInt(body.amountCents);
  return {
    payment: {
      customerId: context.customerId,
      kind: 'deposit',
      fromAccountId: null,
      toAccountId: account.id,
      amountCents,
      counterpartyName: source.account_name,
      counterpartyAccountNumber: `•••• ${source.last4}`,
      counterpartyRouteNumber: source.route_number,
      fundingSourceId: source.id,
      message: body.reason,
      rail: paymentKinds.deposit.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: null, toLedgerAccountId: account.ledger_account_id },
    needsStepUp: false,
    reviewable: false,
    purpose: `a deposit of ${formatMoney(amountCents)}`,
    ...noRecipient,
  };
}
