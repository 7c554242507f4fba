import { formatMoney } from '@strongroom/contracts/money.ts';
import { encrypt, keyedHash } from '../../../platform/crypto.ts';
import type { Queryable } from '../../../db/database.ts';
import { AppError } from '../../../platform/errors.ts';

import { paymentKinds } from '../../money/service.ts';
import type { OwnCardTarget, PaymentPlan, PlanContext, TransferBody } from '../plan.ts';
import { noRecipient, sourceAccount } from './checks.ts';

/** A push to a card number: always a step-up, and D1's review rules apply. */
export async function planCardPayment(context: PlanContext, body: Extract<TransferBody, { kind: 'card' }>): Promise<PaymentPlan> {
  const from = await sourceAccount(context, body.fromAccountId);
  const amountCents = BigInt(body.amountCents);
  const { secrets } = context.config;
  const ownCard = await context.ownCard?.(context.db, body.cardNumber);
  if (ownCard) return planOwnCardPayment(context, body, { id: from.id, ledgerAccountId: from.ledger_account_id }, ownCard, await context.customerName);
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
  senderName: string,
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
  if (card.type === 'credit' && amountCents > card.owedCents) throw overpaying(card.owedCents);
  const { lockedOwedCents } = card;
  // Read here, the debt may be paid by another payment before this one commits: it is read again
  // under the card's row lock in the transaction that moves the money.
  const recheck =
    card.type === 'credit' && lockedOwedCents
      ? async (tx: Queryable) => {
          const owedCents = await lockedOwedCents(tx);
          if (amountCents > owedCents) throw overpaying(owedCents);
        }
      : undefined;
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
        senderName,
        ownCard: 'true',
        cardHolderId: card.customerId,
        ...(card.type === 'credit' && card.cardLedgerAccountId ? { cardLedgerAccountId: card.cardLedgerAccountId } : {}),
      },
      payeeKey: `card:${keyedHash(secrets.sessionSecret, `card:${body.cardNumber}`).toString('hex')}`,
      message: body.message,
      rail: null,
    },
    ledgerAccounts: {
      fromLedgerAccountId: from.ledgerAccountId,
      toLedgerAccountId,
      toOwedLedgerAccountId: card.type === 'debit' ? card.checkingOwedLedgerAccountId : null,
    },
    needsStepUp: true,
    reviewable: true,
    purpose: `a card payment of ${formatMoney(amountCents)}`,
    recipientCustomerId: card.customerId,
    ...(recheck ? { recheck } : {}),
    favorite: null,
  };
}

function overpaying(owedCents: bigint): AppError {
  const message = owedCents === 0n ? 'This card owes nothing.' : `This card owes ${formatMoney(owedCents)}: send at most that.`;
  return new AppError('validation_failed', message, { fields: { amountCents: message } });
}
