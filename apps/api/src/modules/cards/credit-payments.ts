import { randomUUID } from 'node:crypto';
import type { Card } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { equalHashes } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { owedCents } from '../accounts/service.ts';
import { bookMovements } from '../money/service.ts';
import { customerCard, type CardDependencies } from './card-dependencies.ts';
import { findCardPaymentByKey, insertCardPayment } from './card-payment-repository.ts';
import { accountById, type CardRow } from './card-repository.ts';
import { creditCardOwed, creditLineOf } from './credit-line.ts';
import { presentCard } from './presenter.ts';
import { refused, refuseInTransaction, refusalOutside, type Refused } from './refusals.ts';

/** A card payment made (or its replay): the card as it now reads. */
export interface CardPaid {
  outcome: 'paid';
  card: Card;
  created: boolean;
}

export interface CardPaymentRequest {
  fromAccountId: string;
  amountCents: number;
}

/**
 * `POST /cards/{id}/payments`: pays what a credit card owes from the customer's own checking
 * account (checking -> the card's account), never more than is owed. Idempotent per key.
 *
 * One transaction under the card's row lock (issue 30 item 2, decision 052; issue 31): what is
 * owed is read, the payment row written, the ledger transfer posted and the audit entry recorded,
 * and all of it commits or none of it does. A refusal met on the way (nothing owed, not enough
 * money) rolls the transaction back, so no payment row is ever left to delete. Payments of one card
 * (and card pushes to it, `lockedCreditCardOwed`) run one after the other, each reading the debt
 * the one before left; read outside that lock, thirty payments at once each saw the whole debt and
 * together paid it many times over. An account that owes the bank after a returned deposit pays
 * nothing out (accounts/owed.ts).
 */
export async function payCard(
  dependencies: CardDependencies,
  actor: CustomerActor,
  cardId: string,
  body: CardPaymentRequest,
  idempotencyKey: string,
): Promise<CardPaid | Refused> {
  const { db } = dependencies;
  const hash = requestHash('card-payments', { cardId, ...body });
  const card = await customerCard(db, actor.customerId, cardId);
  const replay = async (): Promise<CardPaid | Refused | undefined> => {
    const earlier = await findCardPaymentByKey(db, actor.customerId, idempotencyKey);
    if (!earlier) return undefined;
    if (!earlier.request_hash || !equalHashes(Buffer.from(earlier.request_hash), hash)) {
      return refused('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new payment.');
    }
    return { outcome: 'paid', card: await presentCard(dependencies, card), created: false };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const paid = await refusalOutside(() =>
    retryOnWriteConflict(() => db.transaction((tx) => payInTransaction(dependencies, tx, actor, { cardId, body, idempotencyKey, hash }))),
  );
  if (paid !== true) {
    if (paid !== false) return paid;
    // Another request with this key committed first: its answer is the one to give.
    const raced = await replay();
    if (raced) return raced;
    return refused('conflict', 'This payment is already being processed. Check your card before trying again.');
  }
  dependencies.liveEvents?.publish(actor.customerId, 'accounts');
  return { outcome: 'paid', card: await presentCard(dependencies, card), created: true };
}

/**
 * The payment's transaction: true once paid, false when another request with the key committed
 * first. A refusal ends it through `refuseInTransaction`, writing nothing.
 */
async function payInTransaction(
  dependencies: CardDependencies,
  tx: Queryable,
  actor: CustomerActor,
  payment: { cardId: string; body: CardPaymentRequest; idempotencyKey: string; hash: Buffer },
): Promise<boolean> {
  const { body } = payment;
  const locked = await customerCard(tx, actor.customerId, payment.cardId, { lock: true });
  if (locked.type !== 'credit') refuseInTransaction('conflict', 'Only a credit card has a balance to pay.');
  if (locked.status !== 'active' && locked.status !== 'frozen') refuseInTransaction('card_not_active', 'This card is not active.');
  const from = isUuid(body.fromAccountId) ? await accountById(tx, body.fromAccountId) : undefined;
  if (!from || from.customer_id !== actor.customerId) throw new AppError('not_found', 'No such account');
  await refuseWhileOwing(tx, from);
  const amount = BigInt(body.amountCents);
  const owed = await creditCardOwed(tx, locked);
  if (amount > owed) {
    const message = owed === 0n ? 'This card owes nothing.' : `This card owes ${formatMoney(owed)}: pay at most that.`;
    refuseInTransaction('validation_failed', message, { amountCents: message });
  }
  const id = randomUUID();
  const inserted = await insertCardPayment(tx, {
    id,
    cardId: locked.id,
    customerId: actor.customerId,
    fromAccountId: from.id,
    amountCents: amount,
    source: 'payment',
    idempotencyKey: payment.idempotencyKey,
    requestHash: payment.hash,
  });
  if (!inserted) return false;
  await transferPayment(dependencies, tx, { id, fromLedgerAccountId: from.ledger_account_id, card: locked, amountCents: amount });
  await recordAudit(
    tx,
    auditEntryOf(actor, { action: 'card.paid', subject: locked.id, outcome: 'success', details: { amountCents: body.amountCents, last4: locked.last4 } }),
  );
  return true;
}

/** The payment's ledger transfer (checking -> the card's line), in the payment's transaction: the ledger's refusal rolls it all back. */
async function transferPayment(
  dependencies: CardDependencies,
  tx: Queryable,
  payment: { id: string; fromLedgerAccountId: string; card: CardRow; amountCents: bigint },
): Promise<void> {
  const [answer] = await bookMovements(
    tx,
    [
      {
        id: payment.id,
        kind: 'card_repayment',
        fromLedgerAccountId: payment.fromLedgerAccountId,
        toLedgerAccountId: creditLineOf(payment.card),
        amountCents: payment.amountCents,
      },
    ],
    { clock: dependencies.clock },
  );
  if (answer?.outcome === 'refused') refuseInTransaction('insufficient_funds', 'There is not enough money in that account for this payment.');
  if (answer?.outcome !== 'booked') throw new Error(`the ledger did not book the card payment ${payment.id}: ${answer?.outcome ?? 'no answer'}`);
}

/** An account that owes the bank after a returned deposit pays nothing out (accounts/owed.ts, decision 021). */
async function refuseWhileOwing(db: Queryable, account: { owed_ledger_account_id: string | null }): Promise<void> {
  const owed = await owedCents(db, account);
  if (owed > 0n) {
    refuseInTransaction(
      'account_overdrawn',
      `This account is ${formatMoney(-owed)} after a deposit was returned. Pay in at least ${formatMoney(owed)} before you send money from it.`,
    );
  }
}
