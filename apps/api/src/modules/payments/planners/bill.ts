import { formatMoney } from '@strongroom/contracts/money.ts';

import { payableBillPayee } from '../../bill-payees/service.ts';
import { paymentKinds } from '../../money/service.ts';
import type { PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { hasPaidPayee } from '../review-repository.ts';
import { noRecipient, sourceAccount } from './checks.ts';

/**
 * A bill to one of the customer's bill payees (issue 33; docs/bill-pay.md): an ACH credit to the
 * biller's bank account (the day's NACHA file carries the customer's account number at the biller),
 * or in the sandbox a payment the rail simulator settles. Pending at the ACH rail like a transfer
 * to another bank; the first payment to a payee asks for a step-up (D10), and D1's review rules
 * apply. The payee's id and the last four characters of the customer's number there are kept in
 * the payment's details: the history line reads "Bill payment to City Water, account ending 4821".
 */
export async function planBillPayment(context: PlanContext, body: Extract<TransferBody, { kind: 'bill' }>): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const payee = await payableBillPayee(context.db, context.customerId, body.billPayeeId);
  const amountCents = BigInt(body.amountCents);
  const payeeKey = `bill:${payee.id}`;
  return {
    payment: {
      customerId: context.customerId,
      kind: 'bill',
      fromAccountId: from.id,
      toAccountId: null,
      amountCents,
      counterpartyName: payee.billerName,
      counterpartyAccountNumber: payee.billerAccountNumber,
      counterpartyRouteNumber: payee.routingNumber,
      details: { billPayeeId: payee.id, accountEnding: payee.accountEnding },
      payeeKey,
      message: body.message,
      rail: paymentKinds.bill.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: null },
    needsStepUp: !(await hasPaidPayee(context.db, context.customerId, payeeKey)),
    reviewable: true,
    purpose: `a bill payment of ${formatMoney(amountCents)} to ${payee.billerName}`,
    ...noRecipient,
  };
}
