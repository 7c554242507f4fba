import { randomUUID } from 'node:crypto';
import {
  cardMessages,
  cardRules,
  merchantCategory,
  type Card,
  type CardRevealResponse,
  type CardTransaction,
  type CardType,
  type CreateCardRequest,
  declineReasonLabels,
  type DeclineReason,
} from '@strongroom/contracts/cards.ts';
import { noAccountMessage } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts, lookupAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers, createTransfersIn } from '../../ledger/create-transfers.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { accountFlags, transferFlags } from '../../ledger/types.ts';
import { openFreezeOf } from '../../platform/account-freeze.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { equalHashes } from '../../platform/crypto.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { centsToJson } from '../../platform/money.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { consumeStepUp, requireStepUp, type StepUpDependencies } from '../../platform/step-up.ts';
import { accountsWithBalances, owedCents, owingAmong, repayOwedIn } from '../accounts/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { clearCardPurchaseLine, recordCardPurchaseLine, recordDeclinedCardPurchaseLine, releaseCardPurchaseLine } from '../payments/service.ts';
import {
  cardNumberLookup,
  cardVerificationValue,
  decryptCardNumber,
  encryptCardNumber,
  expiryFrom,
  formatExpiry,
  isExpired,
  isLuhnValid,
  newCardNumber,
  type Expiry,
} from './card-numbers.ts';
import { deviceOf } from './device.ts';
import {
  accountById,
  accountsOfCustomer,
  countOpenCards,
  declineAuthorization,
  expiredHolds,
  orphanAuthorizations,
  findAuthorization,
  findCard,
  findCardByKey,
  findCardByLookup,
  findCreditCardByLedgerAccount,
  findCardPaymentByKey,
  hasPendingCard,
  insertAuthorization,
  insertCard,
  insertCardPayment,
  insertReveal,
  listAuthorizations,
  listCardsOfCustomer,
  listReveals,
  markApproved,
  markRejected,
  resolveAuthorization,
  setCardLimits,
  setCardStatus,
  spentThisMonth,
  type AuthorizationRow,
  type CardRow,
} from './repository.ts';

export type { CardRow } from './repository.ts';

export interface CardDependencies {
  db: Database;
  config: Pick<Config, 'mode' | 'bankName' | 'bankTimeZone' | 'cardKeys'>;
  stepUp: StepUpDependencies;
  liveEvents?: LiveEvents;
  clock?: Clock;
  /** Sandbox: queues the automatic approval of a new request (CARD_AUTO_APPROVE_SECONDS). */
  scheduleAutoApproval?: (cardId: string) => Promise<void>;
}

export interface CardActor {
  customerId: string;
  ip?: string;
  userAgent?: string;
  requestId: string;
}

/** The sandbox's automatic approval gives a credit card this limit ($1,000.00); staff choose their own. */
export const autoApprovedCreditLimitCents = 100_000n;
export const autoApprovalReason = 'Approved automatically in the sandbox (CARD_AUTO_APPROVE_SECONDS); a credit card gets the sandbox credit limit of $1,000.00';
const savingsMinimumCents = 50_000n;
const holdSeconds = cardRules.authorizationHoldDays * 24 * 60 * 60;
const cardsLink = '/card';
const listLimit = 100;

const notFound = () => new AppError('not_found', 'No such card');

function expiryOf(row: CardRow): Expiry | undefined {
  return row.expiry_month && row.expiry_year ? { month: row.expiry_month, year: row.expiry_year } : undefined;
}

// ---- What the customer sees ----

/** Balances come from the ledger (D8): a debit card shows its checking account's available balance, a credit card its available credit. */
async function presentCards(dependencies: CardDependencies, customerId: string, rows: readonly CardRow[]): Promise<Card[]> {
  const { db } = dependencies;
  if (rows.length === 0) return [];
  const accounts = new Map((await accountsWithBalances(db, customerId, true)).map((account) => [account.id, account.availableCents]));
  const ledgerIds = rows.flatMap((row) => (row.ledger_account_id ? [row.ledger_account_id] : []));
  const ledgerAccounts = new Map((await lookupAccounts(db, ledgerIds)).map((account) => [account.id, account]));
  const spent = await spentThisMonth(
    db,
    rows.map((row) => row.id),
    dependencies.config.bankTimeZone,
  );
  return rows.map((row) => {
    const expiry = expiryOf(row);
    const card: Card = {
      id: row.id,
      type: row.type,
      network: row.network,
      nameOnCard: row.name_on_card,
      last4: row.last4 ?? '',
      expiry: expiry ? formatExpiry(expiry) : '',
      status: row.status,
      balanceCents: 0,
      perTransactionLimitCents: centsToJson(BigInt(row.per_transaction_limit_cents)),
      monthlyLimitCents: centsToJson(BigInt(row.monthly_limit_cents)),
      spentThisMonthCents: centsToJson(spent.get(row.id) ?? 0n),
      rejectionReason: row.status === 'rejected' ? row.decision_reason : null,
      createdAt: row.created_at.toISOString(),
    };
    if (row.type === 'debit') {
      card.balanceCents = centsToJson(accounts.get(row.linked_account_id) ?? 0n);
    } else {
      const ledgerAccount = row.ledger_account_id ? ledgerAccounts.get(row.ledger_account_id) : undefined;
      const limit = row.credit_limit_cents === null ? null : BigInt(row.credit_limit_cents);
      if (ledgerAccount && limit !== null) {
        const balance = balanceOf(ledgerAccount);
        card.balanceCents = centsToJson(balance.availableCents);
        card.creditLimitCents = centsToJson(limit);
        card.balanceOwedCents = centsToJson(owedOf(limit, balance.balanceCents));
      }
    }
    return card;
  });
}

/** What a credit card owes: its limit less what is left of the line (posted), never below zero. */
function owedOf(limitCents: bigint, lineBalanceCents: bigint): bigint {
  const owed = limitCents - lineBalanceCents;
  return owed > 0n ? owed : 0n;
}

async function presentCard(dependencies: CardDependencies, row: CardRow): Promise<Card> {
  const [card] = await presentCards(dependencies, row.customer_id, [row]);
  if (!card) throw new Error('a card was not presented');
  return card;
}

/** The customer's own card, or 404 exactly as for a card that does not exist (or a malformed id). */
async function customerCard(db: Queryable, customerId: string, cardId: string, options: { lock?: boolean } = {}): Promise<CardRow> {
  const row = isUuid(cardId) ? await findCard(db, cardId, options) : undefined;
  if (!row || row.customer_id !== customerId) throw notFound();
  return row;
}

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

function audit(actor: CardActor, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  return { actorType: 'customer', actorId: actor.customerId, ip: actor.ip, userAgent: actor.userAgent, requestId: actor.requestId, ...entry };
}

// ---- Request ----

/**
 * `POST /cards` (seed section 5): the seed's refusals in its order (no account, a request already
 * waiting, under $500 available on savings), then a request waiting for approval. The
 * Idempotency-Key makes a repeat answer the same card; the same key with another body is refused.
 */
export async function requestCard(
  dependencies: CardDependencies,
  actor: CardActor,
  body: CreateCardRequest,
  idempotencyKey: string,
): Promise<{ card: Card; created: boolean }> {
  const { db } = dependencies;
  const hash = requestHash('cards', body);
  const replay = async (): Promise<{ card: Card; created: boolean } | undefined> => {
    const earlier = await findCardByKey(db, actor.customerId, idempotencyKey);
    if (!earlier) return undefined;
    if (!equalHashes(Buffer.from(earlier.request_hash), hash)) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new card.');
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
    throw new AppError('no_account', customer ? noAccountMessage(customer.identity_status) : cardMessages.needsCheckingAndSavings);
  }
  if (await hasPendingCard(db, actor.customerId)) throw new AppError('card_pending_approval', cardMessages.pendingApproval);
  const balances = await accountsWithBalances(db, actor.customerId, true);
  const savingsAvailable = balances.find((account) => account.id === savings.id)?.availableCents ?? 0n;
  if (savingsAvailable < savingsMinimumCents) throw new AppError('savings_balance_required', cardMessages.savingsBalanceRequired);

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
    throw new AppError('card_pending_approval', cardMessages.pendingApproval);
  }
  await recordAudit(db, audit(actor, { action: 'card.requested', subject: row.id, outcome: 'success', details: { type: row.type, network: row.network } }));
  await dependencies.scheduleAutoApproval?.(row.id);
  return { card: await presentCard(dependencies, row), created: true };
}

// ---- Freeze, unfreeze, close, limits ----

async function changeStatus(
  dependencies: CardDependencies,
  actor: CardActor,
  cardId: string,
  change: { from: readonly CardRow['status'][]; to: CardRow['status']; action: string; refusal: string },
): Promise<Card> {
  const { db } = dependencies;
  const row = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const card = await customerCard(tx, actor.customerId, cardId, { lock: true });
      if (!change.from.includes(card.status)) throw new AppError('card_not_active', change.refusal);
      let refundedCents = 0n;
      if (change.to === 'closed' && card.type === 'credit' && card.ledger_account_id) {
        await refuseClosingCreditCardInUse(tx, card);
        refundedCents = await returnCreditLine(tx, card, dependencies.clock);
      }
      await setCardStatus(tx, card.id, change.to);
      const details = { last4: card.last4, from: card.status, ...(refundedCents > 0n ? { refundedCents: refundedCents.toString() } : {}) };
      await recordAudit(tx, audit(actor, { action: change.action, subject: card.id, outcome: 'success', details }));
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
  );
  if (change.to === 'closed' && row.type === 'credit') publish(dependencies, row.customer_id);
  return presentCard(dependencies, row);
}

export function freezeCard(dependencies: CardDependencies, actor: CardActor, cardId: string): Promise<Card> {
  return changeStatus(dependencies, actor, cardId, { from: ['active'], to: 'frozen', action: 'card.frozen', refusal: 'Only an active card can be frozen.' });
}

export function unfreezeCard(dependencies: CardDependencies, actor: CardActor, cardId: string): Promise<Card> {
  return changeStatus(dependencies, actor, cardId, { from: ['frozen'], to: 'active', action: 'card.unfrozen', refusal: 'Only a frozen card can be unfrozen.' });
}

/** Closing is final: a closed card is never used, unfrozen or revealed again. A waiting request is withdrawn the same way. */
export function closeCard(dependencies: CardDependencies, actor: CardActor, cardId: string): Promise<Card> {
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
  if (account.debitsPendingCents > 0n) throw new AppError('conflict', 'A purchase on this card is still on hold. Close the card once it has cleared.');
  const owed = owedOf(BigInt(card.credit_limit_cents), balance.balanceCents);
  if (owed > 0n) throw new AppError('conflict', `This card owes ${formatMoney(owed)}. Pay it before closing the card.`);
}

/**
 * Closing empties the card's account, in the closing transaction: the line of credit goes back where
 * it came from (the card's account -> loans receivable), and whatever the card holds beyond its
 * limit (a credit balance: paid more than it owed, say by two payments at once before issue 30) is
 * the customer's money and goes back to the checking account the card belongs to (issue 30 item 2).
 * Ids are derived from the card, so a retried transaction writes them once. Answers the refund.
 */
async function returnCreditLine(tx: Queryable, card: CardRow, clock: Clock | undefined): Promise<bigint> {
  const [account] = await lookupAccounts(tx, [creditLineOf(card)]);
  const checking = await accountById(tx, card.linked_account_id);
  if (!account || !checking || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no line of credit or no checking account`);
  const left = balanceOf(account).availableCents;
  const limit = BigInt(card.credit_limit_cents);
  const lineCents = left < limit ? left : limit;
  const refundCents = left - lineCents;
  const transfers = [
    ...(lineCents > 0n
      ? [
          {
            id: derivedUuid('card-credit-line-returned', card.id),
            debitAccountId: account.id,
            creditAccountId: operatorAccounts.loansReceivable,
            amountCents: lineCents,
            ledger: ledgers.usd,
            code: transferCodes.cardCreditLine,
          },
        ]
      : []),
    ...(refundCents > 0n
      ? [
          {
            id: derivedUuid('card-credit-balance-refunded', card.id),
            debitAccountId: account.id,
            creditAccountId: checking.ledger_account_id,
            amountCents: refundCents,
            ledger: ledgers.usd,
            code: transferCodes.cardCreditRefund,
          },
        ]
      : []),
  ];
  const outcomes = await createTransfersIn(tx, transfers, clock);
  for (const outcome of outcomes) {
    if (outcome.result !== 'ok' && outcome.result !== 'exists') throw new Error(`closing card ${card.id} left money in its account: ${outcome.result}`);
  }
  if (refundCents > 0n)
    await repayOwedIn(tx, await owingAmong(tx, [checking.ledger_account_id]), (inTx, transfers) => createTransfersIn(inTx, transfers, clock));
  return refundCents;
}

export async function setLimits(
  dependencies: CardDependencies,
  actor: CardActor,
  cardId: string,
  limits: { perTransactionLimitCents: number; monthlyLimitCents: number },
): Promise<Card> {
  const { db } = dependencies;
  if (limits.perTransactionLimitCents > limits.monthlyLimitCents) {
    const message = 'The limit per transaction cannot be more than the monthly limit.';
    throw new AppError('validation_failed', message, { fields: { perTransactionLimitCents: message } });
  }
  const row = await db.transaction(async (tx) => {
    const card = await customerCard(tx, actor.customerId, cardId, { lock: true });
    if (card.status !== 'active' && card.status !== 'frozen') throw new AppError('card_not_active', 'Limits can be set on an active or frozen card only.');
    await setCardLimits(tx, card.id, BigInt(limits.perTransactionLimitCents), BigInt(limits.monthlyLimitCents));
    await recordAudit(
      tx,
      audit(actor, {
        action: 'card.limits_changed',
        subject: card.id,
        outcome: 'success',
        details: { perTransactionLimitCents: limits.perTransactionLimitCents, monthlyLimitCents: limits.monthlyLimitCents },
      }),
    );
    return card;
  });
  return presentCard(dependencies, { ...(await findCard(db, row.id))! });
}

// ---- Decision (staff, or the sandbox's automatic approval) ----

export interface CardDecision {
  cardId: string;
  decision: 'approve' | 'reject';
  reason: string;
  creditLimitCents?: number;
  /** A staff id, or 'system'. */
  decidedBy: string;
  audit: (entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>) => AuditEntry;
}

/**
 * Approves (numbers the card; a credit card gets its own ledger account and line of credit) or
 * rejects a waiting request, exactly once. The customer is told either way.
 */
export async function decideCard(dependencies: CardDependencies, decision: CardDecision): Promise<'decided' | 'already_decided' | 'not_found'> {
  const { db, config } = dependencies;
  const card = isUuid(decision.cardId) ? await findCard(db, decision.cardId) : undefined;
  if (!card) return 'not_found';
  if (card.status !== 'pending_approval') return 'already_decided';

  if (decision.decision === 'reject') {
    const decided = await db.transaction(async (tx) => {
      if (!(await markRejected(tx, card.id, decision.reason, decision.decidedBy))) return false;
      await notifyCustomer(tx, {
        customerId: card.customer_id,
        kind: 'rejected',
        name: 'Card request declined',
        text: `We could not approve your ${card.type} card request: ${decision.reason}`,
        link: cardsLink,
      });
      await recordAudit(tx, decision.audit({ action: 'card.rejected', subject: card.id, outcome: 'success', details: { reason: decision.reason } }));
      return true;
    });
    if (!decided) return 'already_decided';
    publish(dependencies, card.customer_id);
    return 'decided';
  }

  const creditLimit = card.type === 'credit' ? BigInt(decision.creditLimitCents ?? 0) : null;
  const ledgerAccountId = card.type === 'credit' ? derivedUuid('card-account', card.id) : null;
  if (creditLimit !== null && ledgerAccountId) await openCreditLine(db, card.id, ledgerAccountId, creditLimit);

  const now = (dependencies.clock ?? systemClock).now();
  const expiry = expiryFrom(now);
  const decided = await db.transaction(async (tx) => {
    // A number nobody holds: the lookup hash is unique, so a clash (vanishingly rare) picks again.
    let number = newCardNumber(card.network);
    for (let attempt = 0; attempt < 5 && (await findCardByLookup(tx, cardNumberLookup(config.cardKeys, number))); attempt += 1)
      number = newCardNumber(card.network);
    const approved = await markApproved(tx, {
      id: card.id,
      panEncrypted: encryptCardNumber(config.cardKeys, number),
      panLookup: cardNumberLookup(config.cardKeys, number),
      last4: number.slice(-4),
      expiryMonth: expiry.month,
      expiryYear: expiry.year,
      ledgerAccountId,
      creditLimitCents: creditLimit,
      reason: decision.reason,
      decidedBy: decision.decidedBy,
    });
    if (!approved) return false;
    await notifyCustomer(tx, {
      customerId: card.customer_id,
      kind: 'released',
      name: 'Card approved',
      text:
        creditLimit === null
          ? `Your debit card ending ${number.slice(-4)} is ready to use.`
          : `Your credit card ending ${number.slice(-4)} is ready to use, with a credit limit of ${formatMoney(creditLimit)}.`,
      link: `/card-details/${card.id}`,
    });
    await recordAudit(
      tx,
      decision.audit({
        action: 'card.approved',
        subject: card.id,
        outcome: 'success',
        details: { reason: decision.reason, last4: number.slice(-4), creditLimitCents: creditLimit === null ? null : Number(creditLimit) },
      }),
    );
    return true;
  });
  if (!decided) {
    // Rejected (or withdrawn) meanwhile: the line opened above goes back, so no unused credit is left on a dead card.
    const current = await findCard(db, card.id);
    if (ledgerAccountId && creditLimit !== null && current && current.ledger_account_id !== ledgerAccountId) {
      const opened = { ...card, ledger_account_id: ledgerAccountId, credit_limit_cents: creditLimit };
      await retryOnWriteConflict(() => db.transaction((tx) => returnCreditLine(tx, opened, dependencies.clock)));
    }
    return 'already_decided';
  }
  publish(dependencies, card.customer_id);
  return 'decided';
}

/**
 * A credit card's own ledger account, credit-normal and never overdrawn (debits_must_not_exceed_credits),
 * funded with the credit limit from loans receivable: a purchase debits it, so the ledger itself
 * refuses one beyond the available credit (TigerBeetle's credit-line recipe). Both ids are derived
 * from the card, so a repeat (a crash, two approvals at once) answers `exists`.
 */
async function openCreditLine(db: Database, cardId: string, ledgerAccountId: string, limitCents: bigint): Promise<void> {
  const [account] = await createAccounts(db, [
    { id: ledgerAccountId, ledger: ledgers.usd, code: accountCodes.card, flags: accountFlags.debitsMustNotExceedCredits },
  ]);
  if (!account || (account.result !== 'ok' && account.result !== 'exists')) throw new Error(`the card's ledger account was refused: ${account?.result}`);
  const [grant] = await createTransfers(db, [
    {
      id: derivedUuid('card-credit-line', cardId),
      debitAccountId: operatorAccounts.loansReceivable,
      creditAccountId: ledgerAccountId,
      amountCents: limitCents,
      ledger: ledgers.usd,
      code: transferCodes.cardCreditLine,
    },
  ]);
  if (!grant || (grant.result !== 'ok' && grant.result !== 'exists')) throw new AppError('already_decided', 'This card was already decided');
}

function publish(dependencies: CardDependencies, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'notifications');
  dependencies.liveEvents?.publish(customerId, 'accounts');
}

// ---- Reveal ----

const revealableStatuses: readonly CardRow['status'][] = ['active', 'frozen'];

/**
 * `POST /cards/{id}/reveal` (D9, D10): a step-up every time, bound to this card (a challenge for
 * another card is refused and a new one sent) and used once. Answers the number, the CVV (derived,
 * never stored) and the expiry; records the reveal for the customer's list and the audit log
 * (never the number).
 */
export async function revealCard(
  dependencies: CardDependencies,
  actor: CardActor,
  cardId: string,
  stepUpChallengeId: string | undefined,
): Promise<CardRevealResponse> {
  const { db, config } = dependencies;
  const card = await customerCard(db, actor.customerId, cardId);
  if (!revealableStatuses.includes(card.status) || !card.pan_encrypted) {
    throw new AppError('card_not_active', 'The number of this card cannot be shown: it is not active.');
  }
  const stepUpKey = `card-reveal:${card.id}`;
  const hash = requestHash('card-reveal', { cardId: card.id });
  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: stepUpKey,
    requestHash: hash,
    amountCents: 0n,
    purpose: `showing the number of your card ending ${card.last4}`,
    requestId: actor.requestId,
  };
  if (!stepUpChallengeId) return requireStepUp(dependencies.stepUp, challenge);
  const device = deviceOf(actor.userAgent);
  const consumed = await db.transaction(async (tx) => {
    if (!(await consumeStepUp(tx, actor.customerId, stepUpChallengeId, stepUpKey, hash))) return false;
    await insertReveal(tx, { cardId: card.id, customerId: actor.customerId, device, ip: actor.ip ?? null });
    await recordAudit(tx, audit(actor, { action: 'card.revealed', subject: card.id, outcome: 'success', details: { last4: card.last4, device } }));
    return true;
  });
  if (!consumed) return requireStepUp(dependencies.stepUp, challenge);
  const number = decryptCardNumber(config.cardKeys, Buffer.from(card.pan_encrypted));
  const expiry = expiryOf(card);
  if (!expiry) throw new Error(`card ${card.id} has a number but no expiry`);
  return { number, cvv: cardVerificationValue(config.cardKeys, number, expiry), expiry: formatExpiry(expiry) };
}

export async function revealsOf(dependencies: CardDependencies, customerId: string, cardId: string) {
  const card = await customerCard(dependencies.db, customerId, cardId);
  const rows = await listReveals(dependencies.db, card.id, listLimit);
  return { items: rows.map((row) => ({ at: row.created_at.toISOString(), device: row.device, ip: row.ip })) };
}

// ---- Authorisations (the card network) ----

export interface AuthorizationInput {
  cardNumber: string;
  expiry: string;
  cvv: string;
  amountCents: number;
  merchantName: string;
  mcc: string;
}

export interface AuthorizationAnswer {
  id: string;
  status: 'approved' | 'declined';
  declineReason?: DeclineReason;
}

function presentTransaction(row: AuthorizationRow): CardTransaction {
  return {
    id: row.id,
    merchantName: row.merchant_name,
    mcc: row.mcc,
    category: merchantCategory(row.mcc),
    amountCents: centsToJson(BigInt(row.amount_cents)),
    clearedCents: row.cleared_cents === null ? null : centsToJson(BigInt(row.cleared_cents)),
    status: row.status,
    declineReason: row.decline_reason,
    createdAt: row.created_at.toISOString(),
    releasesAt: row.status === 'pending' ? (row.releases_at?.toISOString() ?? null) : null,
  };
}

function answerOf(row: AuthorizationRow): AuthorizationAnswer {
  return row.status === 'declined' && row.decline_reason
    ? { id: row.id, status: 'declined', declineReason: row.decline_reason }
    : { id: row.id, status: 'approved' };
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
 * An authorisation: checked against the card (status, expiry, CVV, limits) under a lock on the
 * card, so two at once cannot both pass the monthly limit; then a pending ledger transfer from the
 * card's account (debit: its checking account; credit: its line of credit) to card settlement,
 * with the ledger's 7-day timeout. The ledger refuses it when the money (or credit) is not there.
 * Every decline is recorded too, except for a number that is no card of this bank.
 */
export async function authorize(dependencies: CardDependencies, input: AuthorizationInput, source: string): Promise<AuthorizationAnswer> {
  const { db, config } = dependencies;
  const card = await findCardByLookup(db, cardNumberLookup(config.cardKeys, input.cardNumber));
  if (!card) return { id: randomUUID(), status: 'declined', declineReason: 'unknown_card' };
  const now = (dependencies.clock ?? systemClock).now();
  const id = randomUUID();
  const row = await db.transaction(async (tx) => {
    const locked = await findCard(tx, card.id, { lock: true });
    if (!locked) throw new Error('the card vanished');
    const declineReason = await declineReasonOf(dependencies, tx, locked, input, now);
    return insertAuthorization(tx, {
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
  });
  if (row.status === 'declined') {
    await recordDeclinedLine(dependencies, card, row.id, input, row.decline_reason);
    return answerOf(row);
  }

  const fromLedgerAccountId = await spendingAccountOf(db, card);
  const [outcome] = await createTransfers(
    db,
    [
      {
        id,
        debitAccountId: fromLedgerAccountId,
        creditAccountId: operatorAccounts.settlementCard,
        amountCents: BigInt(input.amountCents),
        ledger: ledgers.usd,
        code: transferCodes.cardPurchase,
        flags: transferFlags.pending,
        timeoutSeconds: holdSeconds,
      },
    ],
    dependencies.clock,
  );
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) {
    const reason: DeclineReason = card.type === 'credit' ? 'insufficient_credit' : 'insufficient_funds';
    if (outcome?.result !== 'exceeds_credits') throw new Error(`the ledger refused an authorisation: ${outcome?.result}`);
    await declineAuthorization(db, id, reason);
    await recordDeclinedLine(dependencies, card, id, input, reason);
    return { id, status: 'declined', declineReason: reason };
  }
  if (card.type === 'debit' && card.last4) {
    await recordCardPurchaseLine(db, {
      id,
      customerId: card.customer_id,
      fromAccountId: card.linked_account_id,
      amountCents: BigInt(input.amountCents),
      merchantName: input.merchantName,
      mcc: input.mcc,
      last4: card.last4,
      releasesAt: row.releases_at ?? new Date(now.getTime() + holdSeconds * 1000),
    });
  }
  dependencies.liveEvents?.publish(card.customer_id, 'accounts');
  return { id, status: 'approved' };
}

/** A debit card's declined attempt is a history line of its checking account (a credit card's is on the card's page only). */
async function recordDeclinedLine(
  dependencies: CardDependencies,
  card: CardRow,
  authorizationId: string,
  attempt: AuthorizationInput,
  reason: string | null,
): Promise<void> {
  if (card.type !== 'debit' || !card.last4 || !reason) return;
  await recordDeclinedCardPurchaseLine(dependencies.db, {
    id: authorizationId,
    customerId: card.customer_id,
    fromAccountId: card.linked_account_id,
    amountCents: BigInt(attempt.amountCents),
    merchantName: attempt.merchantName,
    mcc: attempt.mcc,
    last4: card.last4,
    reason: declineReasonLabels[reason as DeclineReason] ?? reason,
  });
  dependencies.liveEvents?.publish(card.customer_id, 'accounts');
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
  if (!card) throw notFound();
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

async function authorizationFor(db: Queryable, id: string): Promise<AuthorizationRow> {
  const row = isUuid(id) ? await findAuthorization(db, id) : undefined;
  if (!row) throw new AppError('not_found', 'No such authorisation');
  return row;
}

function refuseUnlessPending(row: AuthorizationRow, action: 'clear' | 'reverse'): void {
  if (row.status === 'pending') return;
  const what = action === 'clear' ? 'cleared' : 'reversed';
  const why: Record<Exclude<AuthorizationRow['status'], 'pending'>, string> = {
    cleared: 'it was already cleared',
    reversed: 'it was reversed',
    expired: 'its hold expired and was released',
    declined: 'it was declined',
  };
  throw new AppError('conflict', `This authorisation cannot be ${what}: ${why[row.status]}.`);
}

/**
 * Clearing posts the hold, for its amount or less (the rest is released); more than was
 * authorised, a second clearing, or one after a reversal or expiry is refused (409).
 */
export async function clearAuthorization(
  dependencies: CardDependencies,
  authorizationId: string,
  amountCents: number | undefined,
): Promise<{ authorization: AuthorizationAnswer; transaction: CardTransaction }> {
  const { db } = dependencies;
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(db, authorizationId);
  refuseUnlessPending(row, 'clear');
  const amount = amountCents === undefined ? BigInt(row.amount_cents) : BigInt(amountCents);
  if (amount > BigInt(row.amount_cents)) {
    throw new AppError('conflict', `Clearing can take at most the ${formatMoney(BigInt(row.amount_cents))} that was authorised, not ${formatMoney(amount)}.`);
  }
  const transferId = derivedUuid('card-clear', row.id);
  const [outcome] = await createTransfers(
    db,
    [{ id: transferId, pendingId: row.id, amountCents: amount, flags: transferFlags.postPendingTransfer }],
    dependencies.clock,
  );
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) return refuseResolution(dependencies, row, outcome?.result, 'clear');
  await db.transaction(async (tx) => {
    await resolveAuthorization(tx, row.id, { status: 'cleared', clearedCents: amount, transferId });
    await clearCardPurchaseLine(tx, row.id, amount);
  });
  dependencies.liveEvents?.publish(row.customer_id, 'accounts');
  const cleared = await authorizationFor(db, row.id);
  return { authorization: answerOf(cleared), transaction: presentTransaction(cleared) };
}

/** A reversal voids the hold: the money never left. After clearing it is refused (409). */
export async function reverseAuthorization(
  dependencies: CardDependencies,
  authorizationId: string,
): Promise<{ authorization: AuthorizationAnswer; transaction: CardTransaction }> {
  const { db } = dependencies;
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(db, authorizationId);
  refuseUnlessPending(row, 'reverse');
  const transferId = derivedUuid('card-reverse', row.id);
  const [outcome] = await createTransfers(db, [{ id: transferId, pendingId: row.id, flags: transferFlags.voidPendingTransfer }], dependencies.clock);
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) return refuseResolution(dependencies, row, outcome?.result, 'reverse');
  await db.transaction(async (tx) => {
    await resolveAuthorization(tx, row.id, { status: 'reversed', transferId });
    await releaseCardPurchaseLine(tx, row.id);
    await notifyHoldReleased(tx, row);
  });
  publishRelease(dependencies, row.customer_id);
  const reversed = await authorizationFor(db, row.id);
  return { authorization: answerOf(reversed), transaction: presentTransaction(reversed) };
}

/** The ledger said no to a post or void: the hold was resolved meanwhile (or expired). */
async function refuseResolution(
  dependencies: CardDependencies,
  row: AuthorizationRow,
  result: string | undefined,
  action: 'clear' | 'reverse',
): Promise<never> {
  if (result === 'pending_transfer_expired') {
    await releaseExpiredHolds(dependencies);
    throw new AppError('conflict', `This authorisation cannot be ${action === 'clear' ? 'cleared' : 'reversed'}: its hold expired and was released.`);
  }
  if (result?.startsWith('pending_transfer_already_')) refuseUnlessPending(await authorizationFor(dependencies.db, row.id), action);
  throw new AppError('conflict', `This authorisation cannot be ${action === 'clear' ? 'cleared' : 'reversed'} now.`);
}

async function notifyHoldReleased(db: Queryable, row: AuthorizationRow): Promise<void> {
  await notifyCustomer(db, {
    customerId: row.customer_id,
    kind: 'returned',
    name: 'Hold released',
    text: `The hold of ${formatMoney(BigInt(row.amount_cents))} at ${row.merchant_name} was released: the money is available again.`,
    link: cardsLink,
  });
}

function publishRelease(dependencies: CardDependencies, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'accounts');
  dependencies.liveEvents?.publish(customerId, 'notifications');
}

/**
 * Holds the ledger's sweep voided after 7 days (its timeout) become 'expired' here, their history
 * line "Hold released", and the customer is told. Run by a recurring job and before a clear or reversal.
 */
export async function releaseExpiredHolds(dependencies: CardDependencies, limit = 500): Promise<number> {
  const { db } = dependencies;
  const rows = await expiredHolds(db, limit);
  for (const row of rows) {
    await db.transaction(async (tx) => {
      const current = await findAuthorization(tx, row.id, { lock: true });
      if (current?.status !== 'pending') return;
      await resolveAuthorization(tx, row.id, { status: 'expired' });
      await releaseCardPurchaseLine(tx, row.id);
      await notifyHoldReleased(tx, row);
    });
    publishRelease(dependencies, row.customer_id);
  }
  // An authorisation whose hold never reached the ledger (a crash between the two) held nothing: it ends expired, silently.
  for (const orphan of await orphanAuthorizations(db, orphanAfterMinutes, limit)) await resolveAuthorization(db, orphan.id, { status: 'expired' });
  return rows.length;
}

/** After this long an authorisation with no ledger hold will never get one. */
const orphanAfterMinutes = 5;

export async function transactionsOf(dependencies: CardDependencies, customerId: string, cardId: string): Promise<{ items: CardTransaction[] }> {
  const card = await customerCard(dependencies.db, customerId, cardId);
  return transactionsOfCard(dependencies, card.id);
}

/** A card's transactions, newest first: the card's page shows the latest `listLimit`; the data export asks for more. */
export async function transactionsOfCard(dependencies: CardDependencies, cardId: string, limit = listLimit): Promise<{ items: CardTransaction[] }> {
  const rows = isUuid(cardId) ? await listAuthorizations(dependencies.db, cardId, limit) : [];
  return { items: rows.map(presentTransaction) };
}

// ---- Credit card payments ----

/**
 * `POST /cards/{id}/payments`: pays what a credit card owes from the customer's own checking
 * account (checking -> the card's account), never more than is owed. Idempotent per key.
 *
 * What is owed is read and paid in one transaction under the card's row lock (issue 30 item 2,
 * decision 052): payments of one card (and card pushes to it, `lockedCreditCardOwed`) run one
 * after the other, each reading the debt the one before left. Read outside that lock, thirty
 * payments at once each saw the whole debt and together paid it many times over. The row, the
 * ledger transfer and the audit entry commit together, or nothing does. An account that owes the
 * bank after a returned deposit pays nothing out (accounts/owed.ts).
 */
export async function payCard(
  dependencies: CardDependencies,
  actor: CardActor,
  cardId: string,
  body: { fromAccountId: string; amountCents: number },
  idempotencyKey: string,
): Promise<{ card: Card; created: boolean }> {
  const { db } = dependencies;
  const hash = requestHash('card-payments', { cardId, ...body });
  const card = await customerCard(db, actor.customerId, cardId);
  const replay = async (): Promise<{ card: Card; created: boolean } | undefined> => {
    const earlier = await findCardPaymentByKey(db, actor.customerId, idempotencyKey);
    if (!earlier) return undefined;
    if (!earlier.request_hash || !equalHashes(Buffer.from(earlier.request_hash), hash)) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new payment.');
    }
    return { card: await presentCard(dependencies, card), created: false };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  const amount = BigInt(body.amountCents);
  const id = randomUUID();
  const paid = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const locked = await customerCard(tx, actor.customerId, cardId, { lock: true });
      if (locked.type !== 'credit') throw new AppError('conflict', 'Only a credit card has a balance to pay.');
      if (locked.status !== 'active' && locked.status !== 'frozen') throw new AppError('card_not_active', 'This card is not active.');
      const from = isUuid(body.fromAccountId) ? await accountById(tx, body.fromAccountId) : undefined;
      if (!from || from.customer_id !== actor.customerId) throw new AppError('not_found', 'No such account');
      await refuseWhileOwing(tx, from);
      const owed = await creditCardOwed(tx, locked);
      if (amount > owed) {
        const message = owed === 0n ? 'This card owes nothing.' : `This card owes ${formatMoney(owed)}: pay at most that.`;
        throw new AppError('validation_failed', message, { fields: { amountCents: message } });
      }
      const inserted = await insertCardPayment(tx, {
        id,
        cardId: locked.id,
        customerId: actor.customerId,
        fromAccountId: from.id,
        amountCents: amount,
        source: 'payment',
        idempotencyKey,
        requestHash: hash,
      });
      // Another request with this key committed first: its answer is the one to give.
      if (!inserted) return false;
      const [outcome] = await createTransfersIn(
        tx,
        [
          {
            id,
            debitAccountId: from.ledger_account_id,
            creditAccountId: creditLineOf(locked),
            amountCents: amount,
            ledger: ledgers.usd,
            code: transferCodes.cardRepayment,
          },
        ],
        dependencies.clock,
      );
      if (outcome?.result === 'exceeds_credits') throw new AppError('insufficient_funds', 'There is not enough money in that account for this payment.');
      if (outcome?.result !== 'ok') throw new Error(`the ledger refused a card payment: ${outcome?.result ?? 'no result'}`);
      await recordAudit(
        tx,
        audit(actor, { action: 'card.paid', subject: locked.id, outcome: 'success', details: { amountCents: body.amountCents, last4: locked.last4 } }),
      );
      return true;
    }),
  );
  if (!paid) {
    const raced = await replay();
    if (raced) return raced;
    throw new AppError('conflict', 'This payment is already being processed. Check your card before trying again.');
  }
  dependencies.liveEvents?.publish(actor.customerId, 'accounts');
  return { card: await presentCard(dependencies, card), created: true };
}

/** A credit card's own ledger account: a credit card without one is a defect. */
function creditLineOf(card: CardRow): string {
  if (!card.ledger_account_id || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no line of credit`);
  return card.ledger_account_id;
}

/** What a credit card owes now, from the ledger; the caller holds the card's row lock when it pays against it. */
async function creditCardOwed(db: Queryable, card: CardRow): Promise<bigint> {
  const [line] = await lookupAccounts(db, [creditLineOf(card)]);
  if (!line || card.credit_limit_cents === null) throw new Error(`credit card ${card.id} has no ledger account`);
  return owedOf(BigInt(card.credit_limit_cents), balanceOf(line).balanceCents);
}

/**
 * For a card push (payments' planner) to a credit card of this bank, inside the transaction that
 * moves the money: locks the card's row, as `payCard` does, and answers what it owes now, so that a
 * push and a payment (or two pushes) at the same moment never pay the debt twice.
 */
export async function lockedCreditCardOwed(tx: Queryable, cardLedgerAccountId: string): Promise<bigint> {
  const card = await findCreditCardByLedgerAccount(tx, cardLedgerAccountId, { lock: true });
  if (!card) throw new Error(`no credit card has the ledger account ${cardLedgerAccountId}`);
  return creditCardOwed(tx, card);
}

/** An account that owes the bank after a returned deposit pays nothing out (accounts/owed.ts, decision 021). */
async function refuseWhileOwing(db: Queryable, account: { owed_ledger_account_id: string | null }): Promise<void> {
  const owed = await owedCents(db, account);
  if (owed > 0n) {
    throw new AppError(
      'account_overdrawn',
      `This account is ${formatMoney(-owed)} after a deposit was returned. Pay in at least ${formatMoney(owed)} before you send money from it.`,
    );
  }
}

export type { CardType };

// ---- Card push (POST /transfers kind card) to a card of this bank ----

/** What the payment path needs to pay into a card of this bank (payments' OwnCardTarget). */
export interface CardPushTarget {
  status: CardRow['status'];
  customerId: string;
  type: CardType;
  last4: string;
  checkingAccountId: string;
  checkingLedgerAccountId: string;
  checkingOwedLedgerAccountId: string | null;
  cardLedgerAccountId: string | null;
  owedCents: bigint;
  lockedOwedCents?: (tx: Queryable) => Promise<bigint>;
}

/**
 * Finds a card of this bank by its number through the lookup hash (no number is decrypted), for a
 * card push; undefined for any other number, which then goes to the card rail as before.
 */
export async function cardPushTargetOf(db: Queryable, keys: Config['cardKeys'], cardNumber: string): Promise<CardPushTarget | undefined> {
  if (!isLuhnValid(cardNumber)) return undefined;
  const card = await findCardByLookup(db, cardNumberLookup(keys, cardNumber));
  if (!card?.last4) return undefined;
  const checking = await accountById(db, card.linked_account_id);
  if (!checking) return undefined;
  let owedCents = 0n;
  if (card.type === 'credit' && card.ledger_account_id && card.credit_limit_cents !== null) {
    const [line] = await lookupAccounts(db, [card.ledger_account_id]);
    if (line) owedCents = owedOf(BigInt(card.credit_limit_cents), balanceOf(line).balanceCents);
  }
  const creditLine = card.type === 'credit' ? card.ledger_account_id : null;
  return {
    status: card.status,
    customerId: card.customer_id,
    type: card.type,
    last4: card.last4,
    checkingAccountId: checking.id,
    checkingLedgerAccountId: checking.ledger_account_id,
    checkingOwedLedgerAccountId: checking.owed_ledger_account_id,
    cardLedgerAccountId: card.ledger_account_id,
    owedCents,
    ...(creditLine ? { lockedOwedCents: (tx: Queryable) => lockedCreditCardOwed(tx, creditLine) } : {}),
  };
}
