import { randomUUID } from 'node:crypto';
import { disputeReasonLabels, type Dispute, type DisputeDetail, type DisputeReason } from '@strongroom/contracts/disputes.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import { sqlInstant, systemClock, type Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { calendarDayIn } from '../../platform/business-calendar.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { disputeDeadlines, reportWindowEnd } from './deadlines.ts';
import { eligibilityOf } from './eligibility.ts';
import { letterDay } from './letter-pdf.ts';
import { freezeAndReplaceCard } from '../cards/service.ts';
import { recordLetter } from './letters.ts';
import { presentDetail, presentDispute, transactionDescription } from './presenter.ts';
import {
  customerNameOf,
  evidenceOf,
  findCustomerDispute,
  findDisputedPayment,
  informationIsAwaited,
  insertDispute,
  insertDisputeEvent,
  lettersOf,
  listCustomerDisputes,
  lockDispute,
  paymentIsDisputed,
  setDisputeStatus,
  touchDispute,
  visibleEventsOf,
  type DisputedPaymentRow,
  type PresentedDisputeRow,
} from './repository.ts';

/**
 * The customer's side of a dispute (docs/disputes.md; PRODUCT.md section 7 "Disputes";
 * contract: packages/contracts/src/disputes.ts): reporting a transaction, reading the case,
 * withdrawing it, answering the bank's question. Nothing here moves money: the provisional
 * credit and the decision are the staff side's (staff-service.ts, money.ts).
 */
export interface DisputeDependencies {
  db: Database;
  config: Pick<Config, 'bankTimeZone' | 'bankName'>;
  storage: FileStorage;
  clock?: Clock;
  liveEvents?: LiveEvents;
  /** Sandbox: the cards module's automatic approval, queued for a replacement card as for any new card. */
  scheduleCardApproval?: (cardId: string) => Promise<void>;
}

/** A customer's disputes answered at most (newest first), and a case's events shown at most. */
export const disputeListLimit = 200;
export const disputeEventLimit = 500;
const notFoundMessage = 'No such dispute';
/** Where a notification about a dispute takes the customer (packages/contracts/src/web-routes.ts). */
export const disputeLink = (id: string) => `/disputes/${id}`;
/** The states a case is still open in: before a decision. */
export const openStatuses: ReadonlySet<string> = new Set(['submitted', 'investigating', 'provisionally_credited']);
const uniqueViolation = '23505';

function clockOf(dependencies: Pick<DisputeDependencies, 'clock'>): Clock {
  return dependencies.clock ?? systemClock;
}

function alreadyDisputed(): AppError {
  return new AppError('already_disputed', 'This transaction is already disputed. Open the dispute in Disputes to see where it stands.');
}

function replaceCardRefused(message: string): AppError {
  return new AppError('validation_failed', 'Some fields are not valid', { fields: { replaceCard: message } });
}

/** The customer's own dispute, or 404 exactly as for one that does not exist (or a malformed id). */
export async function customerDispute(db: Queryable, customerId: string, id: string): Promise<PresentedDisputeRow> {
  const row = await findCustomerDispute(db, customerId, id);
  if (!row) throw new AppError('not_found', notFoundMessage);
  return row;
}

/**
 * `POST /disputes`: the transaction must be the customer's (another's answers as a missing one),
 * disputable (eligibility.ts), reported within Regulation E's window and not already disputed. In
 * one transaction: the case with its deadlines, its first event, the acknowledgement letter, a
 * notification and the audit entry, and for an unauthorized card charge with `replaceCard` the
 * card frozen and a new one ordered. A frozen customer may report: a dispute moves no money.
 */
export async function createDispute(
  dependencies: DisputeDependencies,
  actor: CustomerActor,
  body: { transferId: string; reason: DisputeReason; description: string; replaceCard?: boolean },
): Promise<Dispute> {
  const { db, config } = dependencies;
  const payment = await findDisputedPayment(db, body.transferId);
  const eligibility = payment ? eligibilityOf(payment, actor.customerId, body.reason) : undefined;
  if (!payment || !eligibility || (!eligibility.disputable && eligibility.notTheirs)) {
    // A look at a payment that exists but is not the caller's is written down, as history does; the answer is the same.
    if (payment) await recordAudit(db, auditEntryOf(actor, { action: 'dispute.submitted', subject: payment.id, outcome: 'denied' }));
    throw new AppError('not_found', 'No such transaction');
  }
  if (!eligibility.disputable) throw new AppError('not_disputable', eligibility.message);
  const replaceCard = body.replaceCard === true;
  if (replaceCard && (body.reason !== 'unauthorized' || eligibility.cardId === null)) {
    throw replaceCardRefused('A card is frozen and replaced only for a card purchase you did not make (reason: I did not make or allow this).');
  }
  const receivedOn = await bankDate(db, config, clockOf(dependencies));
  const transactionDate = calendarDayIn(config.bankTimeZone, payment.created_at);
  const windowEnd = reportWindowEnd(transactionDate);
  if (receivedOn > windowEnd) {
    throw new AppError(
      'dispute_window_passed',
      `The time to report this transaction ended on ${windowEnd}: 60 days after the statement that first showed it. Write to us by secure message and we will see what we can do.`,
    );
  }
  if (await paymentIsDisputed(db, payment.id)) throw alreadyDisputed();
  const deadlines = disputeDeadlines({
    receivedOn,
    accountOpenedOn: calendarDayIn(config.bankTimeZone, eligibility.openedAt),
    pointOfSale: eligibility.pointOfSale,
    // Every payment the bank makes starts in the US; a card purchase's merchant country is not known to it.
    foreign: false,
  });
  const id = randomUUID();
  const customerName = await customerNameOf(db, actor.customerId);
  const description = transactionDescription(
    {
      kind: payment.kind,
      message: payment.message,
      counterpartyName: payment.counterparty_name,
      counterpartyBankName: payment.counterparty_bank_name,
      details: payment.details,
    },
    eligibility.side,
  );
  let newCardId: string | undefined;
  try {
    newCardId = await db.transaction((tx) =>
      recordReport(tx, dependencies, actor, { id, body, payment, eligibility, deadlines, receivedOn, transactionDate, description, customerName, replaceCard }),
    );
  } catch (error) {
    // Two reports of one payment at once: the unique index of open disputes lets one in.
    if ((error as { code?: unknown }).code === uniqueViolation) throw alreadyDisputed();
    throw error;
  }
  if (newCardId) await dependencies.scheduleCardApproval?.(newCardId);
  publish(dependencies, actor.customerId);
  return presentDispute(await customerDispute(db, actor.customerId, id), config.bankTimeZone);
}

type Disputable = Extract<ReturnType<typeof eligibilityOf>, { disputable: true }>;

interface Report {
  id: string;
  body: { reason: DisputeReason; description: string };
  payment: DisputedPaymentRow;
  eligibility: Disputable;
  deadlines: ReturnType<typeof disputeDeadlines>;
  receivedOn: string;
  transactionDate: string;
  description: string;
  customerName: string;
  replaceCard: boolean;
}

/** The report's writes, in one transaction; answers the replacement card ordered, if any. */
async function recordReport(tx: Queryable, dependencies: DisputeDependencies, actor: CustomerActor, report: Report): Promise<string | undefined> {
  const { id, body, payment, eligibility, deadlines, receivedOn, transactionDate, description, customerName, replaceCard } = report;
  const { config } = dependencies;
  const now = sqlInstant(dependencies.clock);
  const replacement = replaceCard && eligibility.cardId ? await replaceTheCard(tx, actor, eligibility.cardId, id, now) : undefined;
  await insertDispute(
    tx,
    {
      id,
      customerId: actor.customerId,
      paymentId: payment.id,
      accountId: eligibility.accountId,
      reason: body.reason,
      description: body.description,
      amountCents: payment.amount_cents,
      receivedOn,
      provisionalCreditBy: deadlines.provisionalCreditBy,
      resolveBy: deadlines.resolveBy,
      newAccount: deadlines.newAccount,
      pointOfSale: eligibility.pointOfSale,
      cardReplaced: replacement !== undefined,
    },
    now,
  );
  const amount = formatMoney(payment.amount_cents);
  await insertDisputeEvent(
    tx,
    {
      disputeId: id,
      kind: 'submitted',
      text: `We received your report about ${description} (${amount}) on ${letterDay(receivedOn)}. If we have not finished by ${letterDay(deadlines.provisionalCreditBy)} we will give you provisional credit; we will finish by ${letterDay(deadlines.resolveBy)}.`,
    },
    now,
  );
  if (replacement) await insertDisputeEvent(tx, { disputeId: id, kind: 'card_replaced', text: replacement.text }, now);
  await recordLetter(tx, {
    disputeId: id,
    customerId: actor.customerId,
    kind: 'acknowledgement',
    facts: {
      customerName,
      bankName: config.bankName,
      date: receivedOn,
      transaction: { description, amountCents: payment.amount_cents.toString(), date: transactionDate },
      reason: disputeReasonLabels[body.reason],
      receivedOn,
      provisionalCreditBy: deadlines.provisionalCreditBy,
      resolveBy: deadlines.resolveBy,
    },
  });
  await notifyCustomer(tx, {
    customerId: actor.customerId,
    kind: 'dispute',
    name: 'Dispute received',
    text: `We received your report about ${description} (${amount}). We will finish by ${deadlines.resolveBy}; your letter is in the dispute.`,
    link: disputeLink(id),
    paymentId: payment.id,
  });
  await recordAudit(
    tx,
    auditEntryOf(actor, {
      action: 'dispute.submitted',
      subject: id,
      outcome: 'success',
      details: { paymentId: payment.id, reason: body.reason, amountCents: payment.amount_cents.toString(), cardReplaced: replacement !== undefined },
    }),
  );
  return replacement?.newCardId;
}

/**
 * Freezes the card of an unauthorized charge and orders its replacement (a new card like it,
 * waiting for approval as any new card does), in the dispute's transaction. A card already frozen
 * stays frozen; a closed one cannot be replaced from here.
 */
async function replaceTheCard(
  tx: Queryable,
  actor: CustomerActor,
  cardId: string,
  disputeId: string,
  now: Date | null,
): Promise<{ newCardId: string | undefined; text: string }> {
  const replaced = await freezeAndReplaceCard(tx, actor, cardId, { key: `dispute:${disputeId}`, cause: { disputeId }, now });
  if (replaced.outcome === 'not_in_use') {
    throw replaceCardRefused('This card is no longer in use, so there is nothing to freeze: order a new card from Cards if you need one.');
  }
  const ending = replaced.last4 ? ` ending ${replaced.last4}` : '';
  const ordered = replaced.newCardId
    ? 'A new card is ordered: you will see it in Cards once it is approved.'
    : 'A new card you asked for is already waiting for approval in Cards.';
  return { newCardId: replaced.newCardId, text: `Your card${ending} is frozen so it cannot be used again. ${ordered}` };
}

function publish(dependencies: DisputeDependencies, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'notifications');
}

export async function listDisputes(dependencies: DisputeDependencies, customerId: string): Promise<Dispute[]> {
  const rows = await listCustomerDisputes(dependencies.db, customerId, disputeListLimit);
  return rows.map((row) => presentDispute(row, dependencies.config.bankTimeZone));
}

export async function disputeDetail(dependencies: DisputeDependencies, customerId: string, id: string): Promise<DisputeDetail> {
  const { db } = dependencies;
  const row = await customerDispute(db, customerId, id);
  const [events, letters, evidence] = [await visibleEventsOf(db, row.id, disputeEventLimit), await lettersOf(db, row.id), await evidenceOf(db, row.id)];
  return presentDetail(row, dependencies.config.bankTimeZone, { events, letters, evidence });
}

/**
 * `POST /disputes/{id}/withdraw`: the customer no longer disputes it, before the bank has decided
 * and before any provisional credit (taking that back is a decision's work, with its notice). The
 * transaction may be reported again later.
 */
export async function withdrawDispute(dependencies: DisputeDependencies, actor: CustomerActor, id: string): Promise<Dispute> {
  const { db } = dependencies;
  await customerDispute(db, actor.customerId, id);
  await db.transaction(async (tx) => {
    const locked = await lockDispute(tx, id);
    if (!locked) throw new AppError('not_found', notFoundMessage);
    if (locked.status === 'provisionally_credited') {
      throw new AppError(
        'dispute_state',
        'We have given you provisional credit on this dispute, so it can no longer be withdrawn here. Write to us by secure message.',
      );
    }
    if (!openStatuses.has(locked.status) || locked.decision !== null) {
      throw new AppError('dispute_state', 'This dispute is already decided or withdrawn, so it cannot be withdrawn.');
    }
    const now = sqlInstant(dependencies.clock);
    await setDisputeStatus(tx, id, 'withdrawn', now);
    await insertDisputeEvent(
      tx,
      { disputeId: id, kind: 'withdrawn', text: 'You withdrew this report. You can report the transaction again if you need to.' },
      now,
    );
    await notifyCustomer(tx, {
      customerId: actor.customerId,
      kind: 'dispute',
      name: 'Dispute withdrawn',
      text: 'You withdrew your report. You can report the transaction again if you need to.',
      link: disputeLink(id),
    });
    await recordAudit(tx, auditEntryOf(actor, { action: 'dispute.withdrawn', subject: id, outcome: 'success', details: { from: locked.status } }));
  });
  publish(dependencies, actor.customerId);
  return presentDispute(await customerDispute(db, actor.customerId, id), dependencies.config.bankTimeZone);
}

/** `POST /disputes/{id}/information`: the customer's answer to the bank's question, while one is asked and the case is open. */
export async function giveInformation(dependencies: DisputeDependencies, actor: CustomerActor, id: string, text: string): Promise<DisputeDetail> {
  const { db } = dependencies;
  await customerDispute(db, actor.customerId, id);
  await db.transaction(async (tx) => {
    const locked = await lockDispute(tx, id);
    if (!locked) throw new AppError('not_found', notFoundMessage);
    if (!openStatuses.has(locked.status)) throw new AppError('dispute_state', 'This dispute is decided or withdrawn, so it takes no more information.');
    if (!(await informationIsAwaited(tx, id))) {
      throw new AppError('dispute_state', 'We have not asked you anything on this dispute. To add something, add evidence or write to us by secure message.');
    }
    const now = sqlInstant(dependencies.clock);
    await insertDisputeEvent(tx, { disputeId: id, kind: 'information_given', text }, now);
    await touchDispute(tx, id, now);
    await recordAudit(tx, auditEntryOf(actor, { action: 'dispute.information_given', subject: id, outcome: 'success' }));
  });
  return disputeDetail(dependencies, actor.customerId, id);
}
