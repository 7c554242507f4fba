import { formatMoney } from '@strongroom/contracts/money.ts';
import { encrypt, keyedHash } from '../../../platform/crypto.ts';

import { paymentKinds } from '../kinds.ts';
import type { PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { noRecipient, sourceAccount } from './checks.ts';

/** A push to a card number: always a step-up, and D1's review rules apply. */
export async function planCardPayment(context: PlanContext, body: Extract<TransferBody, { kind: 'card' }>): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const amountCents = BigInt(body.amountCents);
  const { secrets } = context.config;
  return {
    payment: {
      customerId: context.customerId,
      kind: 'card',
      fromAccountId: from.id,
      toAccountId: null,
      amountCents,
      counterpartyName: body.accountName,
      counterpartyAccountNumber: `•••• ${body.cardNumber.slice(-4)}`,
      counterpartyBankName: null,
      // The full number is kept only encrypted, for the rail; the payee key is a keyed hash.
      cardNumberEncrypted: encrypt(secrets.encryptionKey, Buffer.from(body.cardNumber)),
      payeeKey: `card:${keyedHash(secrets.sessionSecret, `card:${body.cardNumber}`).toString('hex')}`,
      message: body.message,
      rail: paymentKinds.card.rail,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledger_account_id, toLedgerAccountId: null },
    needsStepUp: true,
    reviewable: true,
    purpose: `a card payment of ${formatMoney(amountCents)}`,
    ...noRecipient,
  };
}
