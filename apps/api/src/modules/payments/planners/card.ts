import { formatMoney } from '@strongroom/contracts/money.ts';
import { encrypt, keyedHash } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/errors.ts';

import { paymentKinds } from '../kinds.ts';
import type { OwnCardTarget, PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { noRecipient, sourceAccount } from './checks.ts';

/** A push to a card number: always a step-up, and D1's review rules apply. */
export async function planCardPayment(context: PlanContext, body: Extract<TransferBody, { kind: 'card' }>): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const amountCents = BigInt(body.amountCents);
  const { secrets } = context.config;
  const ownCard = await context.ownCard?.(context.db, body.cardNumber);
  if (ownCard) return planOwnCardPayment(context, body, { id: from.id, ledgerAccountId: from.ledger_account_id }, ownCard);
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

/**
 * A push to a card of this bank (issue 13): refused before any money moves unless the card is
 * active; otherwise posted at once into the card's account (kinds.ts): a debit card's checking
 * account, or a credit card's line of credit, up to what it owes. Review rules still apply.
 */
function planOwnCardPayment(
  context: PlanContext,
  body: Extract<TransferBody, { kind: 'card' }>,
  from: { id: string; ledgerAccountId: string },
  card: OwnCardTarget,
): PaymentPlan {
  const amountCents = BigInt(body.amountCents);
  if (card.status !== 'active') {
    throw new AppError('card_not_active', card.status === 'frozen' ? 'This card is frozen: no money was sent.' : 'This card is not active: no money was sent.');
  }
  const toLedgerAccountId = card.type === 'debit' ? card.checkingLedgerAccountId : card.cardLedgerAccountId;
  if (!toLedgerAccountId) throw new AppError('card_not_active', 'This card is not active: no money was sent.');
  if (toLedgerAccountId === from.ledgerAccountId) {
    const message = 'This card spends from the account you are paying from. Choose another account.';
    throw new AppError('validation_failed', message, { fields: { fromAccountId: message } });
  }
  if (card.type === 'credit' && amountCents > card.owedCents) {
    const message = card.owedCents === 0n ? 'This card owes nothing.' : `This card owes ${formatMoney(card.owedCents)}: send at most that.`;
    throw new AppError('validation_failed', message, { fields: { amountCents: message } });
  }
  const { secrets } = context.config;
  return {
    payment: {
      customerId: context.customerId,
      kind: 'card',
      fromAccountId: from.id,
      toAccountId: card.type === 'debit' ? card.checkingAccountId : null,
      amountCents,
      counterpartyName: body.accountName,
      counterpartyAccountNumber: `•••• ${card.last4}`,
      counterpartyBankName: null,
      details: {
        senderName: context.customerName,
        ownCard: 'true',
        cardHolderId: card.customerId,
        ...(card.type === 'credit' && card.cardLedgerAccountId ? { cardLedgerAccountId: card.cardLedgerAccountId } : {}),
      },
      payeeKey: `card:${keyedHash(secrets.sessionSecret, `card:${body.cardNumber}`).toString('hex')}`,
      message: body.message,
      rail: null,
    },
    ledgerAccounts: { fromLedgerAccountId: from.ledgerAccountId, toLedgerAccountId },
    needsStepUp: true,
    reviewable: true,
    purpose: `a card payment of ${formatMoney(amountCents)}`,
    recipientCustomerId: card.customerId,
    favorite: null,
  };
}
