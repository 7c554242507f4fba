import { randomUUID } from 'node:crypto';
import { cardMessages, cardRules, type Card, type CreateCardRequest } from '@strongroom/contracts/cards.ts';
import { noAccountMessage } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { equalHashes } from '../../platform/crypto.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { cardsLink, customerCard, publishCardChange, type CardDependencies } from './card-dependencies.ts';
import {
  accountsOfCustomer,
  countOpenCards,
  findCard,
  findCardByKey,
  hasPendingCard,
  insertCard,
  listCardsOfCustomer,
  setCardLimits,
  setCardStatus,
  type CardRow,
} from './card-repository.ts';
import { owedOf, returnCreditLine } from './credit-line.ts';
import { presentCard, presentCards } from './presenter.ts';
import { isRefused, refused, refuseInTransaction, refusalOutside, type Refused } from './refusals.ts';

const savingsMinimumCents = 50_000n;

export async function cardsOf(dependencies: CardDependencies, customerId: string): Promise<Card[]> {
  return presentCards(dependencies, customerId, await listCardsOfCustomer(dependencies.db, customerId));
}

export async function cardOf(dependencies: CardDependencies, customerId: string, cardId: string): Promise<Card> {
  return presentCard(dependencies, await customerCard(dependencies.db, customerId, cardId));
}

/** The dashboard's count: the customer's cards that are neither rejected nor closed. */
export function cardCountOf(db: Queryable, customerId: string): Promise<number> {
  return countOpenCards(db, customerId);
}

// ---- Request ----

/**
 * `POST /cards` (seed section 5): the seed's refusals in its order (no account, a request already
 * waiting, under $500 available on savings), then a request waiting for approval. The
 * Idempotency-Key makes a repeat answer the same card; the same key with another body is refused.
 */
export async function requestCard(
  dependencies: CardDependencies,
  actor: CustomerActor,
  body: CreateCardRequest,
  idempotencyKey: string,
): Promise<{ card: Card; created: boolean } | Refused> {
  const { db } = dependencies;
  const hash = requestHash('cards', body);
  const replay = async (): Promise<{ card: Card; created: boolean } | Refused | undefined> => {
    const earlier = await findCardByKey(db, actor.customerId, idempotencyKey);
    if (!earlier) return undefined;
    if (!equalHashes(Buffer.from(earlier.request_hash), hash)) {
      return refused('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new card.');
    }
    return { card: await presentCard(dependencies, earlier), created: false };
  };
  const earlier = await replay();
  if (earlier) return earlier;

  const accounts = await accountsOfCustomer(db, actor.customerId);
  const checking = accounts.find((account) => account.type === 'checking');
  const savings = accounts.find((account) => account.type === 'savings');
  if (!checking || !savings) {
    // Why a customer has no account is worth saying (usually the identity check is not done yet; decision 057).
    const customer = accounts.length === 0 ? await findCustomerById(db, actor.customerId) : undefined;
    return refused('no_account', customer ? noAccountMessage(customer.identity_status) : cardMessages.needsCheckingAndSavings);
  }
  if (await hasPendingCard(db, actor.customerId)) return refused('card_pending_approval', cardMessages.pendingApproval);
  const balances = await accountsWithBalances(db, actor.customerId, true);
  const savingsAvailable = balances.find((account) => account.id === savings.id)?.availableCents ?? 0n;
  if (savingsAvailable < savingsMinimumCents) return refused('savings_balance_required', cardMessages.savingsBalanceRequired);

  const row = await insertCard(db, {
    id: randomUUID(),
    customerId: actor.customerId,
    type: body.cardType,
    network: body.cardNetwork,
    nameOnCard: body.nameOnCard,
    linkedAccountId: checking.id,
    perTransactionLimitCents: BigInt(cardRules.defaultPerTransactionLimitCents),
    monthlyLimitCents: BigInt(cardRules.defaultMonthlyLimitCents),
    idempotencyKey,
    requestHash: hash,
  });
  if (!row) {
    // The same key at the same moment, or another request that got in first (one waits at a time).
    const raced = await replay();
    if (raced) return raced;
    return refused('card_pending_approval', cardMessages.pendingApproval);
  }
  await recordAudit(
    db,
    auditEntryOf(actor, { action: 'card.requested', subject: row.id, outcome: 'success', details: { type: row.type, network: row.network } }),
  );
  await dependencies.scheduleAutoApproval?.(row.id);
  return { card: await presentCard(dependencies, row), created: true };
}

// ---- Freeze, unfreeze, close, limits ----

async function changeStatus(
  dependencies: CardDependencies,
  actor: CustomerActor,
  cardId: string,
  change: { from: readonly CardRow['status'][]; to: CardRow['status']; action: string; refusal: string },
): Promise<Card | Refused> {
  const { db } = dependencies;
  const row = await refusalOutside(() =>
    retryOnWriteConflict(() =>
      db.transaction(async (tx) => {
        const card = await customerCard(tx, actor.customerId, cardId, { lock: true });
        if (!change.from.includes(card.status)) refuseInTransaction('card_not_active', change.refusal);
        let refundedCents = 0n;
        if (change.to === 'closed' && card.type === 'credit' && card.ledger_account_id) {
          await refuseClosingCreditCardInUse(tx, card);
          refundedCents = await returnCreditLine(tx, card, dependencies.clock);
        }
        await setCardStatus(tx, card.id, change.to);
        const details = { last4: card.last4, from: card.status, ...(refundedCents > 0n ? { refundedCents: refundedCents.toString() } : {}) };
        await recordAudit(tx, auditEntryOf(actor, { action: change.action, subject: card.id, outcome: 'success', details }));
        if (refundedCents > 0n) {
          await notifyCustomer(tx, {
            customerId: card.customer_id,
            kind: 'money_in',
            name: 'Credit balance returned',
            text: `Your credit card ending ${card.last4 ?? ''} is closed. It held ${formatMoney(refundedCents)} more than it owed, which is back in your checking account.`,
            link: cardsLink,
          });
        }
        return { ...card, status: change.to };
      }),
    ),
  );
  if (isRefused(row)) return row;
  if (change.to === 'closed' && row.type === 'credit') publishCardChange(dependencies, row.customer_id);
  return presentCard(dependencies, row);
}

export function freezeCard(dependencies: CardDependencies, actor: CustomerActor, cardId: string): Promise<Card | Refused> {
  return changeStatus(dependencies, actor, cardId, { from: ['active'], to: 'frozen', action: 'card.frozen', refusal: 'Only an active card can be frozen.' });
}

export function unfreezeCard(dependencies: CardDependencies, actor: CustomerActor, cardId: string): Promise<Card | Refused> {
  return changeStatus(dependencies, actor, cardId, { from: ['frozen'], to: 'active', action: 'card.unfrozen', refusal: 'Only a frozen card can be unfrozen.' });
}

/** Closing is final: a closed card is never used, unfrozen or revealed again. A waiting request is withdrawn the same way. */
export function closeCard(dependencies: CardDependencies, actor: CustomerActor, cardId: string): Promise<Card | Refused> {
  return changeStatus(dependencies, actor, cardId, {
    from: ['pending_approval', 'active', 'frozen'],
    to: 'closed',
    action: 'card.closed',
    refusal: 'This card is already closed.',
  });
}

/** A credit card closes only once nothing is owed and no purchase is on hold: the line is then returned whole. */
async function refuseClosingCreditCardInUse(db: Queryable, card: CardRow): Promise<void> {
  const [account] = await lookupAccounts(db, [card.ledger_account_id ?? '']);
  if (!account || card.credit_limit_cents === null) return;
  const balance = balanceOf(account);
  if (account.debitsPendingCents > 0n) refuseInTransaction('conflict', 'A purchase on this card is still on hold. Close the card once it has cleared.');
  const owed = owedOf(BigInt(card.credit_limit_cents), balance.balanceCents);
  if (owed > 0n) refuseInTransaction('conflict', `This card owes ${formatMoney(owed)}. Pay it before closing the card.`);
}

export async function setLimits(
  dependencies: CardDependencies,
  actor: CustomerActor,
  cardId: string,
  limits: { perTransactionLimitCents: number; monthlyLimitCents: number },
): Promise<Card | Refused> {
  const { db } = dependencies;
  if (limits.perTransactionLimitCents > limits.monthlyLimitCents) {
    const message = 'The limit per transaction cannot be more than the monthly limit.';
    return refused('validation_failed', message, { perTransactionLimitCents: message });
  }
  const row = await refusalOutside(() =>
    db.transaction(async (tx) => {
      const card = await customerCard(tx, actor.customerId, cardId, { lock: true });
      if (card.status !== 'active' && card.status !== 'frozen') refuseInTransaction('card_not_active', 'Limits can be set on an active or frozen card only.');
      await setCardLimits(tx, card.id, BigInt(limits.perTransactionLimitCents), BigInt(limits.monthlyLimitCents));
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'card.limits_changed',
          subject: card.id,
          outcome: 'success',
          details: { perTransactionLimitCents: limits.perTransactionLimitCents, monthlyLimitCents: limits.monthlyLimitCents },
        }),
      );
      return card;
    }),
  );
  if (isRefused(row)) return row;
  return presentCard(dependencies, { ...(await findCard(db, row.id))! });
}
