import { formatMoney } from '@strongroom/contracts/money.ts';
import { paymentKinds } from '../../money/service.ts';
import type { NewPayment } from '../repository.ts';
import type { PaymentPlan, PlanContext, WithdrawalBody } from '../plan.ts';
import { noRecipient, sourceAccount, verifiedFundingSource } from './checks.ts';

type Counterparty = Pick<
  NewPayment,
  | 'counterpartyName'
  | 'counterpartyAccountNumber'
  | 'counterpartyBankName'
  | 'counterpartyRouteNumber'
  | 'counterpartyCountry'
  | 'details'
  | 'payeeKey'
  | 'message'
  | 'fundingSourceId'
>;

/**
 * Where the money goes: one of the customer's verified linked banks (the accounts deposits come
 * from, decision 060), kept masked as a deposit keeps it, or an account typed by hand with the
 * seed's fields (the contract requires all of them when no linked bank is named).
 */
async function counterpartyOf(context: PlanContext, body: WithdrawalBody): Promise<Counterparty> {
  if (body.fundingSourceId !== undefined) {
    const source = await verifiedFundingSource(context, body.fundingSourceId);
    return {
      counterpartyName: source.account_name,
      counterpartyAccountNumber: `•••• ${source.last4}`,
      counterpartyBankName: null,
      counterpartyRouteNumber: source.route_number,
      counterpartyCountry: 'United States',
      details: {},
      payeeKey: `funding-source:${source.id}`,
      message: `Withdrawal to your account •••• ${source.last4}`,
      fundingSourceId: source.id,
    };
  }
  const { accountName, accountNumber, nameOfBank, routeNumber, country, stateName, bankAddress } = body;
  if (
    accountName === undefined ||
    accountNumber === undefined ||
    nameOfBank === undefined ||
    routeNumber === undefined ||
    country === undefined ||
    stateName === undefined ||
    bankAddress === undefined
  ) {
    throw new Error('a withdrawal without a linked bank passed validation without all of its typed fields');
  }
  return {
    counterpartyName: accountName,
    counterpartyAccountNumber: accountNumber,
    counterpartyBankName: nameOfBank,
    counterpartyRouteNumber: routeNumber,
    counterpartyCountry: country,
    details: { stateName, bankAddress },
    payeeKey: `bank:${routeNumber}:${accountNumber}`,
    message: `Withdrawal to ${nameOfBank}`,
  };
}

/** A wire to an account at another bank: always a step-up, and D1's review rules apply. */
export async function planWithdrawal(context: PlanContext, body: WithdrawalBody): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const counterparty = await counterpartyOf(context, body);
  const amountCents = BigInt(body.amountCents);
  return {
    payment: {
      customerId: context.customerId,
      kind: 'withdrawal',
      fromAccountId: from.id,
      toAccountId: null,
      amountCents,
      ...counterparty,
      rail: paymentKinds.withdrawal.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: null },
    needsStepUp: true,
    reviewable: true,
    purpose: `a withdrawal of ${formatMoney(amountCents)}`,
    ...noRecipient,
  };
}
