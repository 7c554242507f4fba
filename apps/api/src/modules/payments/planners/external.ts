import { formatMoney } from '@strongroom/contracts/money.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';

import { paymentKinds } from '../../money/service.ts';
import type { PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { fieldError, sourceAccount } from './checks.ts';

/** To an account at another bank, by ACH: always a step-up, and D1's review rules apply. */
export async function planExternalTransfer(context: PlanContext, body: Extract<TransferBody, { kind: 'external' }>): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  if (body.routeNumber === businessConstants.bankRoutingNumber) {
    throw fieldError('routeNumber', 'This routing number is this bank: choose a transfer within this bank');
  }
  const amountCents = BigInt(body.amountCents);
  return {
    payment: {
      customerId: context.customerId,
      kind: 'external',
      fromAccountId: from.id,
      toAccountId: null,
      amountCents,
      counterpartyName: body.accountName,
      counterpartyAccountNumber: body.toAccountNumber,
      counterpartyBankName: body.nameOfBank,
      counterpartyRouteNumber: body.routeNumber,
      counterpartyCountry: body.nameOfCountry,
      payeeKey: `bank:${body.routeNumber}:${body.toAccountNumber}`,
      message: body.message,
      rail: paymentKinds.external.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: null },
    needsStepUp: true,
    reviewable: true,
    purpose: `a transfer of ${formatMoney(amountCents)}`,
    recipientCustomerId: null,
    favorite: body.addToFavorites
      ? {
          bankType: 'otherbank',
          bankName: body.nameOfBank,
          accountName: body.accountName,
          accountNumber: body.toAccountNumber,
          routeNumber: body.routeNumber,
          nameOfCountry: body.nameOfCountry,
          accountType: null,
        }
      : null,
  };
}
