import { randomUUID } from 'node:crypto';
import { declineReasonLabels, type CardTransaction, type DeclineReason } from '@strongroom/contracts/cards.ts';
import { systemClock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { openFreezeOf } from '../../platform/account-freeze.ts';
import { equalHashes } from '../../platform/crypto.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { owedCents } from '../accounts/service.ts';
import { bookedMovementKinds, bookMovements, type BookingOutcome } from '../money/service.ts';
import { recordCardPurchaseLine, recordDeclinedCardPurchaseLine } from '../payments/service.ts';
import { insertAuthorization, listAuthorizations, spentThisMonth, type AuthorizationRow } from './authorization-repository.ts';
import { cardNotFound, customerCard, listLimit, type CardDependencies } from './card-dependencies.ts';
import { cardNumberLookup, cardVerificationValue, decryptCardNumber, formatExpiry, isExpired } from './card-numbers.ts';
import { accountById, findCard, findCardByLookup, type CardRow } from './card-repository.ts';
import { answerOf, expiryOf, presentTransaction, type AuthorizationAnswer } from './presenter.ts';

/** How long the ledger holds an authorised amount before its sweep releases it (kinds.ts: card_authorization). */
const holdSeconds = bookedMovementKinds.card_authorization.timeoutSeconds;

export interface AuthorizationInput {
  cardNumber: string;
  expiry: string;
  cvv: string;
  amountCents: number;
  merchantName: string;
  mcc: string;
}

/** The checks a card network asks the issuer for, in order; the first that fails is the decline reason. */
async function declineReasonOf(
  dependencies: CardDependencies,
  tx: Queryable,
  card: CardRow,
  input: AuthorizationInput,
  now: Date,
): Promise<DeclineReason | undefined> {
  if (card.status === 'frozen') return 'card_frozen';
  if (card.status === 'closed') return 'card_closed';
  if (card.status !== 'active') return 'card_not_active';
  // A customer staff froze moves no money, by card or otherwise.
  if (await openFreezeOf(tx, card.customer_id)) return 'card_frozen';
  const expiry = expiryOf(card);
  if (!expiry || !card.pan_encrypted) return 'card_not_active';
  if (isExpired(expiry, now)) return 'card_expired';
  if (input.expiry !== formatExpiry(expiry)) return 'wrong_expiry';
  const number = decryptCardNumber(dependencies.config.cardKeys, Buffer.from(card.pan_encrypted));
  const cvv = cardVerificationValue(dependencies.config.cardKeys, number, expiry);
  if (!equalHashes(Buffer.from(input.cvv.padEnd(3)), Buffer.from(cvv))) return 'wrong_cvv';
  const amount = BigInt(input.amountCents);
  if (amount > BigInt(card.per_transaction_limit_cents)) return 'over_transaction_limit';
  const spent = (await spentThisMonth(tx, [card.id], dependencies.config.bankTimeZone)).get(card.id) ?? 0n;
  if (spent + amount > BigInt(card.monthly_limit_cents)) return 'over_monthly_limit';
  // A debit card spends its checking account's money: while that account owes the bank after a
  // returned deposit, there is none to spend (accounts/owed.ts; issue 30 item 6).
  if (card.type === 'debit') {
    const checking = await accountById(tx, card.linked_account_id);
    if (!checking || (await owedCents(tx, checking)) > 0n) return 'insufficient_funds';
  }
  return undefined;
}

/**
 * An authorisation, in one transaction: checked against the card (status, expiry, CVV, limits)
 * under a lock on the card, so two at once cannot both pass the monthly limit; then a pending
 * ledger transfer from the card's spending account (a debit card's checking account, a credit
 * card's line) to card settlement, held for 7 days (kinds.ts: card_authorization), booked by the
 * money module with the authorisation's row and a debit card's history line. The ledger refuses
 * it when the money (or credit) is not there, and the decline is recorded instead. Every decline
 * is recorded, except for a number that is no card of this bank.
 */
export async function authorize(dependencies: CardDependencies, input: AuthorizationInput, source: string): Promise<AuthorizationAnswer> {
  const { db, config } = dependencies;
  const card = await findCardByLookup(db, cardNumberLookup(config.cardKeys, input.cardNumber));
  if (!card) return { id: randomUUID(), status: 'declined', declineReason: 'unknown_card' };
  const now = (dependencies.clock ?? systemClock).now();
  const id = randomUUID();
  const answer = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const locked = await findCard(tx, card.id, { lock: true });
      if (!locked) throw new Error('the card vanished');
      const checked = await declineReasonOf(dependencies, tx, locked, input, now);
      const booked = checked ? undefined : await holdAuthorizedAmount(dependencies, tx, locked, id, BigInt(input.amountCents));
      const declineReason = checked ?? (booked?.outcome === 'refused' ? (locked.type === 'credit' ? 'insufficient_credit' : 'insufficient_funds') : undefined);
      const row = await insertAuthorization(tx, {
        id,
        cardId: locked.id,
        customerId: locked.customer_id,
        amountCents: BigInt(input.amountCents),
        merchantName: input.merchantName,
        mcc: input.mcc,
        status: declineReason ? 'declined' : 'pending',
        declineReason: declineReason ?? null,
        source,
        releasesAt: declineReason ? null : new Date(now.getTime() + holdSeconds * 1000),
      });
      if (declineReason) await recordDeclinedLine(tx, locked, id, input, declineReason);
      else await recordPurchaseLine(tx, locked, row, input, now);
      return answerOf(row);
    }),
  );
  dependencies.liveEvents?.publish(card.customer_id, 'accounts');
  return answer;
}

/** The authorised amount held in the ledger; a refusal (no money, or no credit left) is the caller's decline. */
async function holdAuthorizedAmount(dependencies: CardDependencies, tx: Queryable, card: CardRow, id: string, amountCents: bigint): Promise<BookingOutcome> {
  const [booked] = await bookMovements(tx, [{ id, kind: 'card_authorization', fromLedgerAccountId: await spendingAccountOf(tx, card), amountCents }], {
    clock: dependencies.clock,
  });
  if (!booked || booked.outcome === 'already') throw new Error(`the authorisation ${id} was already held`);
  return booked;
}

/** A debit card's purchase is a pending history line of its checking account (a credit card's is on the card's page only). */
async function recordPurchaseLine(tx: Queryable, card: CardRow, row: AuthorizationRow, attempt: AuthorizationInput, now: Date): Promise<void> {
  if (card.type !== 'debit' || !card.last4) return;
  await recordCardPurchaseLine(tx, {
    id: row.id,
    customerId: card.customer_id,
    fromAccountId: card.linked_account_id,
    amountCents: BigInt(attempt.amountCents),
    merchantName: attempt.merchantName,
    mcc: attempt.mcc,
    last4: card.last4,
    releasesAt: row.releases_at ?? new Date(now.getTime() + holdSeconds * 1000),
  });
}

/** A debit card's declined attempt is a history line of its checking account (a credit card's is on the card's page only). */
async function recordDeclinedLine(tx: Queryable, card: CardRow, authorizationId: string, attempt: AuthorizationInput, reason: DeclineReason): Promise<void> {
  if (card.type !== 'debit' || !card.last4) return;
  await recordDeclinedCardPurchaseLine(tx, {
    id: authorizationId,
    customerId: card.customer_id,
    fromAccountId: card.linked_account_id,
    amountCents: BigInt(attempt.amountCents),
    merchantName: attempt.merchantName,
    mcc: attempt.mcc,
    last4: card.last4,
    reason: declineReasonLabels[reason],
  });
}

async function spendingAccountOf(db: Queryable, card: CardRow): Promise<string> {
  if (card.type === 'credit') {
    if (!card.ledger_account_id) throw new Error(`credit card ${card.id} has no ledger account`);
    return card.ledger_account_id;
  }
  const account = await accountById(db, card.linked_account_id);
  if (!account) throw new Error(`debit card ${card.id} has no checking account`);
  return account.ledger_account_id;
}

/** The same path for staff (the console's simulator): the card's own number, expiry and CVV unless overridden. */
export async function authorizeStoredCard(
  dependencies: CardDependencies,
  input: { cardId: string; amountCents: number; merchantName: string; mcc: string; cvv?: string; expiry?: string },
  source: string,
): Promise<AuthorizationAnswer> {
  const card = isUuid(input.cardId) ? await findCard(dependencies.db, input.cardId) : undefined;
  if (!card) throw cardNotFound();
  const expiry = expiryOf(card);
  if (!card.pan_encrypted || !expiry) {
    // A request never approved has no number for a merchant to present; the attempt is still recorded, declined.
    const row = await insertAuthorization(dependencies.db, {
      id: randomUUID(),
      cardId: card.id,
      customerId: card.customer_id,
      amountCents: BigInt(input.amountCents),
      merchantName: input.merchantName,
      mcc: input.mcc,
      status: 'declined',
      declineReason: card.status === 'closed' ? 'card_closed' : 'card_not_active',
      source,
      releasesAt: null,
    });
    return answerOf(row);
  }
  const number = decryptCardNumber(dependencies.config.cardKeys, Buffer.from(card.pan_encrypted));
  return authorize(
    dependencies,
    {
      cardNumber: number,
      expiry: input.expiry ?? formatExpiry(expiry),
      cvv: input.cvv ?? cardVerificationValue(dependencies.config.cardKeys, number, expiry),
      amountCents: input.amountCents,
      merchantName: input.merchantName,
      mcc: input.mcc,
    },
    source,
  );
}

export async function transactionsOf(dependencies: CardDependencies, customerId: string, cardId: string): Promise<{ items: CardTransaction[] }> {
  const card = await customerCard(dependencies.db, customerId, cardId);
  return transactionsOfCard(dependencies, card.id);
}

/** A card's transactions, newest first: the card's page shows the latest `listLimit`; the data export asks for more. */
export async function transactionsOfCard(dependencies: CardDependencies, cardId: string, limit = listLimit): Promise<{ items: CardTransaction[] }> {
  const rows = isUuid(cardId) ? await listAuthorizations(dependencies.db, cardId, limit) : [];
  return { items: rows.map(presentTransaction) };
}
