import type { CardDecisionRequest, CardStatus, StaffCard } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { systemClock } from '../../db/clock.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { cardNotFound, cardsLink, publishCardChange, type CardDependencies } from './card-dependencies.ts';
import { cardNumberLookup, encryptCardNumber, expiryFrom, newCardNumber } from './card-numbers.ts';
import { findCard, findCardByLookup, markApproved, markRejected, type CardRow } from './card-repository.ts';
import { grantCreditLine, openCreditLineAccount } from './credit-line.ts';
import { presentStaffCard } from './presenter.ts';
import { refused, type Refused } from './refusals.ts';
import { cardQueuePageSize, findStaffCard, listStaffCards, type StaffCardRow } from './staff-repository.ts';

/** The sandbox's automatic approval gives a credit card this limit ($1,000.00); staff choose their own. */
export const autoApprovedCreditLimitCents = 100_000n;
export const autoApprovalReason = 'Approved automatically in the sandbox (CARD_AUTO_APPROVE_SECONDS); a credit card gets the sandbox credit limit of $1,000.00';

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
  const card = isUuid(decision.cardId) ? await findCard(dependencies.db, decision.cardId) : undefined;
  if (!card) return 'not_found';
  if (card.status !== 'pending_approval') return 'already_decided';
  const decided = decision.decision === 'reject' ? await rejectRequest(dependencies, card, decision) : await approveRequest(dependencies, card, decision);
  if (!decided) return 'already_decided';
  publishCardChange(dependencies, card.customer_id);
  return 'decided';
}

async function rejectRequest(dependencies: CardDependencies, card: CardRow, decision: CardDecision): Promise<boolean> {
  return dependencies.db.transaction(async (tx) => {
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
}

async function approveRequest(dependencies: CardDependencies, card: CardRow, decision: CardDecision): Promise<boolean> {
  const { db, config } = dependencies;
  const creditLimit = card.type === 'credit' ? BigInt(decision.creditLimitCents ?? 0) : null;
  const ledgerAccountId = card.type === 'credit' ? derivedUuid('card-account', card.id) : null;
  if (ledgerAccountId) await openCreditLineAccount(db, ledgerAccountId);

  const now = (dependencies.clock ?? systemClock).now();
  const expiry = expiryFrom(now);
  // The line of credit is granted in the approving transaction: a card rejected or withdrawn
  // meanwhile is never approved, and its (empty) account never holds credit.
  return retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
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
      if (ledgerAccountId && creditLimit !== null) await grantCreditLine(tx, card.id, ledgerAccountId, creditLimit, dependencies.clock);
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
    }),
  );
}

// ---- The back office's queue (`cards.decide`, issue 13) ----

async function staffCardOf(dependencies: CardDependencies, id: string): Promise<StaffCardRow> {
  const row = isUuid(id) ? await findStaffCard(dependencies.db, id) : undefined;
  if (!row) throw cardNotFound();
  return row;
}

/** A page of the queue: waiting requests oldest first, every other status newest first, each with the customer's standing. */
export async function staffCardPage(
  dependencies: CardDependencies,
  status: CardStatus,
  cursor: string | undefined,
): Promise<{ items: StaffCard[]; nextCursor: string | null; total: number }> {
  const { rows, total } = await listStaffCards(dependencies.db, status, decodeCursor(cursor));
  const page = rows.slice(0, cardQueuePageSize);
  const last = page.at(-1);
  return {
    items: await Promise.all(page.map((row) => presentStaffCard(dependencies, row))),
    nextCursor: rows.length > cardQueuePageSize && last ? encodeCursor({ at: last.sort_text, id: last.id }) : null,
    total,
  };
}

/** A staff member's decision on a waiting request, exactly once; a credit card's approval names its limit, nothing else does. */
export async function decideCardRequest(
  dependencies: CardDependencies,
  actor: StaffActor,
  cardId: string,
  request: CardDecisionRequest,
): Promise<{ outcome: 'decided'; card: StaffCard } | Refused> {
  const card = await staffCardOf(dependencies, cardId);
  const { decision, reason, creditLimitCents } = request;
  if (card.status !== 'pending_approval') return refused('already_decided', 'This card request was already decided');
  if (decision === 'approve' && card.type === 'credit' && creditLimitCents === undefined) {
    const message = 'A credit card needs a credit limit';
    return refused('validation_failed', message, { creditLimitCents: message });
  }
  if (creditLimitCents !== undefined && (decision === 'reject' || card.type === 'debit')) {
    const message = decision === 'reject' ? 'A rejection has no credit limit' : 'A debit card has no credit limit';
    return refused('validation_failed', message, { creditLimitCents: message });
  }
  const outcome = await decideCard(dependencies, {
    cardId: card.id,
    decision,
    reason,
    creditLimitCents,
    decidedBy: actor.staffId,
    audit: (entry) => auditEntryOf(actor, entry),
  });
  if (outcome === 'not_found') throw cardNotFound();
  if (outcome === 'already_decided') return refused('already_decided', 'This card request was already decided');
  return { outcome: 'decided', card: await presentStaffCard(dependencies, await staffCardOf(dependencies, card.id)) };
}
