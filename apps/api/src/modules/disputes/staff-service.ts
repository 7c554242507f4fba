import { type DisputeStatus, type StaffDispute, type StaffDisputeDetail } from '@strongroom/contracts/disputes.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import { sqlInstant, systemClock, type Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { evidenceFile } from './evidence.ts';
import { recordLetter } from './letters.ts';
import { giveProvisionalCredit } from './money.ts';
import { evidenceOf, lettersOf, lockDispute, type DisputeRow } from './repository.ts';
import { disputedTransactionOf, letterFactsOf, presentStaffDetail, presentStaffDispute } from './staff-presenter.ts';
import {
  findStaffDispute,
  insertStaffEvent,
  listStaffDisputes,
  markCredited,
  markInvestigating,
  sameCounterpartyOf,
  staffEventsOf,
  type StaffDisputeRow,
} from './staff-repository.ts';

/**
 * The back office's side of a dispute (issue 34 item 3; docs/disputes.md; contract:
 * packages/contracts/src/disputes.ts). Every action is taken under the case's row lock, with a
 * reason, an event, an audit entry and a notice to the customer (and a letter where Regulation E
 * asks for one), in one transaction with any money it moves (money.ts). A refusal (the case's
 * state does not allow it, four eyes) is audited and committed, then answered.
 */
export interface StaffDisputeDependencies {
  db: Database;
  config: Pick<Config, 'bankTimeZone' | 'bankName'>;
  storage: FileStorage;
  clock?: Clock;
  liveEvents?: LiveEvents;
}

/** The queue answers at most this many cases; a case's events and the same payee's payments at most these. */
export const staffDisputeListLimit = 200;
export const staffEventLimit = 500;
export const sameCounterpartyLimit = 20;
const notFoundMessage = 'No such dispute';
export const disputeLink = (id: string) => `/disputes/${id}`;

/** Who acts: a staff member, or the bank's own job (the automatic provisional credit, a reversal due). */
export type DisputeActor = { staff: StaffActor } | { system: true };

function clockOf(dependencies: Pick<StaffDisputeDependencies, 'clock'>): Clock {
  return dependencies.clock ?? systemClock;
}

/** The bank's date; inside a transaction, read with `tx` (PGlite has one connection: the pool would wait on the transaction). */
export function today(dependencies: StaffDisputeDependencies, db: Queryable = dependencies.db): Promise<string> {
  return bankDate(db, dependencies.config, clockOf(dependencies));
}

function auditOf(actor: DisputeActor, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  return 'staff' in actor ? auditEntryOf(actor.staff, entry) : { actorType: 'system', ...entry };
}

function staffIdOf(actor: DisputeActor): string | null {
  return 'staff' in actor ? actor.staff.staffId : null;
}

/** `GET /staff/disputes?status=`. */
export async function staffDisputeQueue(dependencies: StaffDisputeDependencies, status: DisputeStatus | undefined): Promise<StaffDispute[]> {
  const [rows, day] = [await listStaffDisputes(dependencies.db, status, staffDisputeListLimit), await today(dependencies)];
  return rows.map((row) => presentStaffDispute(row, dependencies.config.bankTimeZone, day));
}

export async function staffCase(db: Queryable, id: string): Promise<StaffDisputeRow> {
  const row = await findStaffDispute(db, id);
  if (!row) throw new AppError('not_found', notFoundMessage);
  return row;
}

/** `GET /staff/disputes/{id}`. */
export async function staffDisputeDetail(dependencies: StaffDisputeDependencies, id: string): Promise<StaffDisputeDetail> {
  const { db } = dependencies;
  const row = await existingCase(db, id);
  const parts = {
    events: await staffEventsOf(db, row.id, staffEventLimit),
    letters: await lettersOf(db, row.id),
    evidence: await evidenceOf(db, row.id),
    sameCounterparty: await sameCounterpartyOf(db, row, sameCounterpartyLimit),
  };
  return presentStaffDetail(row, dependencies.config.bankTimeZone, await today(dependencies), parts);
}

/** The case, or 404 (a malformed id is not found, like a missing one). */
function existingCase(db: Queryable, id: string): Promise<StaffDisputeRow> {
  if (!isUuid(id)) throw new AppError('not_found', notFoundMessage);
  return staffCase(db, id);
}

/** `GET /staff/disputes/{id}/evidence/{evidenceId}`: the file, its viewing audited. */
export async function viewEvidence(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, evidenceId: string) {
  await existingCase(dependencies.db, id);
  const file = await evidenceFile(dependencies, id, evidenceId);
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'dispute.evidence_viewed',
      subject: id,
      outcome: 'success',
      details: { evidenceId: file.row.id, fileName: file.row.file_name },
    }),
  );
  return file;
}

/** What an action inside the case's lock answers: done, or refused (audited, committed, then answered). */
export type Step = { done: true; awaitingApproval?: boolean } | { done: false; error: AppError; refusal: string };

export function refuse(code: 'dispute_state' | 'four_eyes_required', message: string, refusal: string): Step {
  return { done: false, error: new AppError(code, message), refusal };
}

export const openStatuses: ReadonlySet<DisputeStatus> = new Set(['submitted', 'investigating', 'provisionally_credited']);
export const decided = 'This dispute is already decided or withdrawn.';

/**
 * Runs one staff action on a case under its row lock, in one transaction retried whole on a ledger
 * write conflict. Two staff acting at once are taken one after the other: the second sees what
 * the first did and is refused by the case's state (409 dispute_state).
 */
export async function act(
  dependencies: StaffDisputeDependencies,
  actor: StaffActor,
  id: string,
  action: string,
  reason: string,
  step: (tx: Queryable, locked: DisputeRow, now: Date | null) => Promise<Step>,
): Promise<{ dispute: StaffDispute; awaitingApproval?: boolean }> {
  const { db } = dependencies;
  await existingCase(db, id);
  const outcome = await retryOnWriteConflict(() =>
    db.transaction(async (tx): Promise<Step> => {
      const locked = await lockDispute(tx, id);
      if (!locked) return { done: false, error: new AppError('not_found', notFoundMessage), refusal: 'not_found' };
      const done = await step(tx, locked, sqlInstant(dependencies.clock));
      if (!done.done) {
        await recordAudit(
          tx,
          auditEntryOf(actor, {
            action: `dispute.${action}_refused`,
            subject: id,
            outcome: done.error.code === 'four_eyes_required' ? 'denied' : 'failure',
            details: { reason, refusal: done.refusal, status: locked.status },
          }),
        );
      }
      return done;
    }),
  );
  if (!outcome.done) throw outcome.error;
  const row = await staffCase(db, id);
  dependencies.liveEvents?.publish(row.customer_id, 'notifications');
  return {
    dispute: presentStaffDispute(row, dependencies.config.bankTimeZone, await today(dependencies)),
    ...(outcome.awaitingApproval ? { awaitingApproval: true } : {}),
  };
}

/** `POST /staff/disputes/{id}/investigate`: submitted -> investigating. */
export function investigate(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, reason: string) {
  return act(dependencies, actor, id, 'investigating', reason, async (tx, locked, now) => {
    if (locked.status !== 'submitted') return refuse('dispute_state', 'Only a dispute just received can be put under investigation.', 'not_submitted');
    await markInvestigating(tx, locked.id, now);
    await insertStaffEvent(
      tx,
      { disputeId: locked.id, kind: 'investigating', text: 'We started investigating.', staffReason: reason, staffId: actor.staffId, visible: true },
      now,
    );
    const row = await staffCase(tx, locked.id);
    await notifyCustomer(tx, {
      customerId: locked.customer_id,
      kind: 'dispute',
      name: 'Dispute under investigation',
      text: `We are investigating your dispute of ${disputedTransactionOf(row)}. We will finish by ${locked.resolve_by}.`,
      link: disputeLink(locked.id),
    });
    await recordAudit(tx, auditEntryOf(actor, { action: 'dispute.investigating', subject: locked.id, outcome: 'success', details: { reason } }));
    return { done: true };
  });
}

/**
 * The provisional credit given (by staff, or by the job on the deadline): the money, the case
 * provisionally credited, its event, the provisional_credit letter, the notice and the audit entry.
 */
export async function creditCase(
  dependencies: StaffDisputeDependencies,
  tx: Queryable,
  locked: DisputeRow,
  actor: DisputeActor,
  reason: string,
): Promise<void> {
  const now = sqlInstant(dependencies.clock);
  const paymentId = await giveProvisionalCredit(tx, locked, dependencies.clock, { bankName: dependencies.config.bankName });
  await markCredited(tx, locked.id, paymentId, now);
  const amount = formatMoney(locked.amount_cents);
  await insertStaffEvent(
    tx,
    {
      disputeId: locked.id,
      kind: 'provisional_credit',
      text: `We gave you provisional credit of ${amount} while we investigate.`,
      staffReason: reason,
      staffId: staffIdOf(actor),
      visible: true,
    },
    now,
  );
  const row = await staffCase(tx, locked.id);
  await recordLetter(tx, {
    disputeId: locked.id,
    customerId: locked.customer_id,
    kind: 'provisional_credit',
    facts: letterFactsOf(row, dependencies.config, await today(dependencies, tx), { provisionalCreditCents: locked.amount_cents.toString() }),
  });
  await notifyCustomer(tx, {
    customerId: locked.customer_id,
    kind: 'dispute',
    name: 'Provisional credit given',
    text: `We credited ${amount} to your account while we investigate your dispute of ${disputedTransactionOf(row)}. It is provisional: we will tell you the result by ${locked.resolve_by}.`,
    link: disputeLink(locked.id),
    paymentId,
  });
  await recordAudit(
    tx,
    auditOf(actor, {
      action: 'dispute.provisional_credit',
      subject: locked.id,
      outcome: 'success',
      details: { reason, paymentId, amountCents: locked.amount_cents.toString() },
    }),
  );
}

/** `POST /staff/disputes/{id}/provisional-credit`: once, on an open case not decided. */
export function grantProvisionalCredit(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, reason: string) {
  return act(dependencies, actor, id, 'provisional_credit', reason, async (tx, locked) => {
    if (locked.provisional_credit_payment_id !== null)
      return refuse('dispute_state', 'Provisional credit was already given on this dispute.', 'already_credited');
    if (locked.status !== 'submitted' && locked.status !== 'investigating') return refuse('dispute_state', decided, 'decided');
    await creditCase(dependencies, tx, locked, { staff: actor }, reason);
    return { done: true };
  });
}

/** `POST /staff/disputes/{id}/request-information`: the question the customer reads and answers in the dispute. */
export function requestInformation(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, question: string, reason: string) {
  return act(dependencies, actor, id, 'information_requested', reason, async (tx, locked, now) => {
    if (!openStatuses.has(locked.status) || locked.decision !== null) return refuse('dispute_state', decided, 'decided');
    await insertStaffEvent(
      tx,
      { disputeId: locked.id, kind: 'information_requested', text: question, staffReason: reason, staffId: actor.staffId, visible: true },
      now,
    );
    const row = await staffCase(tx, locked.id);
    await recordLetter(tx, {
      disputeId: locked.id,
      customerId: locked.customer_id,
      kind: 'information_request',
      facts: letterFactsOf(row, dependencies.config, await today(dependencies, tx), { explanation: question }),
    });
    await notifyCustomer(tx, {
      customerId: locked.customer_id,
      kind: 'dispute',
      name: 'We need more information',
      text: `We have a question about your dispute of ${disputedTransactionOf(row)}. Open the dispute to answer it.`,
      link: disputeLink(locked.id),
    });
    await recordAudit(tx, auditEntryOf(actor, { action: 'dispute.information_requested', subject: locked.id, outcome: 'success', details: { reason } }));
    return { done: true };
  });
}
