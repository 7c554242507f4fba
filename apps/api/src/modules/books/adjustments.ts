import { randomUUID } from 'node:crypto';
import { adjustmentFourEyesCents, type Adjustment, type BooksAccountsResponse } from '@strongroom/contracts/books.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { operatorAccountCodes, operatorAccounts } from '../../ledger/codes.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { approversLinked } from '../../platform/four-eyes.ts';
import { decodeCursor, keysetPage } from '../../platform/keyset-cursor.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { bookMovements } from '../money/service.ts';
import {
  bookedDayOf,
  decideAdjustmentRow,
  findAdjustment,
  insertAdjustment,
  linkException,
  listAdjustments,
  resolveAdjustedException,
  unlinkException,
  type AdjustmentRow,
  type AdjustmentStatus,
} from './adjustments-repository.ts';
import { chartOf } from './balances.ts';
import { adjustableAccounts, glAccountOfCode, glAccounts, type AdjustableAccount } from './chart.ts';
import { closedThrough as closedThroughOf, isBusinessDayClosedError } from './close.ts';
import type { BooksDependencies } from './dependencies.ts';

/**
 * Adjusting entries (docs/books.md, "Adjusting entries"): a finance member corrects the books with
 * a posted transfer between two of the bank's own accounts, with a reason, booked on an open day
 * (a closed day never changes). An entry of adjustmentFourEyesCents or more waits for a second
 * member, who must be someone else and not linked to the first by grants of access (decision 050).
 * An entry may settle a reconciliation exception: it is resolved when the entry posts.
 */

export type AdjustmentOutcome =
  | { kind: 'posted'; adjustment: Adjustment }
  | { kind: 'awaiting_approval'; adjustment: Adjustment }
  | { kind: 'business_day_closed'; day: string; closedThrough: string }
  | { kind: 'invalid'; field: 'debitAccount' | 'creditAccount' | 'postedOn'; message: string };

export type DecideAdjustmentOutcome =
  | { kind: 'posted'; adjustment: Adjustment }
  | { kind: 'rejected'; adjustment: Adjustment }
  | { kind: 'not_found' }
  | { kind: 'already_decided'; adjustment: Adjustment }
  /** The member who asked (`same_staff`), or one linked to them (`linked_staff`), may not approve. */
  | { kind: 'four_eyes_required'; refusal: 'same_staff' | 'linked_staff' }
  | { kind: 'business_day_closed'; day: string; closedThrough: string };

/** The exception named is not open, or another entry settles it already: the reconciliation checks it first, under its row lock. */
export class ExceptionNotOpenError extends Error {
  override readonly name = 'ExceptionNotOpenError';
}

/** A page of the adjusting entries list. */
export const adjustmentPageSize = 50;

export function presentAdjustment(row: AdjustmentRow): Adjustment {
  return {
    id: row.id,
    debitAccount: row.debit_account,
    creditAccount: row.credit_account,
    amountCents: Number(row.amount_cents),
    postedOn: row.posted_on,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requested_by,
    requestedByEmail: row.requested_by_email,
    decidedBy: row.decided_by,
    decidedByEmail: row.decided_by_email,
    decisionReason: row.decision_reason,
    exceptionId: row.exception_id,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

async function presented(db: Queryable, id: string): Promise<Adjustment> {
  const row = await findAdjustment(db, id);
  if (!row) throw new Error(`adjusting entry ${id} was written and is not found`);
  return presentAdjustment(row);
}

function isAdjustable(key: string): key is AdjustableAccount {
  return (adjustableAccounts as readonly string[]).includes(key);
}

function closedDay(day: string, closedThrough: string): { kind: 'business_day_closed'; day: string; closedThrough: string } {
  return { kind: 'business_day_closed', day, closedThrough };
}

/** The message of a refusal to book on a closed day (the API's business_day_closed). */
export function closedDayMessage(day: string, closedThrough: string): string {
  return `${day} is closed: a correction is booked on an open day (${addDays(closedThrough, 1)} or later)`;
}

interface Entry {
  id: string;
  debitAccount: AdjustableAccount;
  creditAccount: AdjustableAccount;
  amountCents: bigint;
  postedOn: string | null;
}

/**
 * Posts the entry's ledger transfer (its id is the entry's) inside the caller's transaction, on
 * `postedOn` when one was asked for (migration 0050's trigger refuses a closed one with SR035,
 * which rolls the whole transaction back) or else on the open day; answers the day it was booked on.
 */
async function postEntry(deps: BooksDependencies, tx: Queryable, entry: Entry): Promise<string> {
  if (entry.postedOn !== null) await tx.query(`SELECT set_config('strongroom.posted_on', $1, true)`, [entry.postedOn]);
  const [answer] = await bookMovements(
    tx,
    [
      {
        id: entry.id,
        kind: 'adjustment',
        fromLedgerAccountId: operatorAccounts[entry.debitAccount],
        toLedgerAccountId: operatorAccounts[entry.creditAccount],
        amountCents: entry.amountCents,
      },
    ],
    { clock: deps.clock },
  );
  // The date asked for is this entry's only: later writes of the transaction are dated by the trigger again.
  if (entry.postedOn !== null) await tx.query(`SELECT set_config('strongroom.posted_on', '', true)`);
  // The bank's own accounts have no limits and the id is new: any other answer is a defect.
  if (answer?.outcome !== 'booked') throw new Error(`the ledger did not book adjusting entry ${entry.id}: ${JSON.stringify(answer)}`);
  return bookedDayOf(tx, entry.id);
}

/** Why a request is refused before anything is written, or null. */
async function invalidRequest(
  deps: BooksDependencies,
  request: { debitAccount: string; creditAccount: string; amountCents: bigint; postedOn?: string },
): Promise<Extract<AdjustmentOutcome, { kind: 'invalid' | 'business_day_closed' }> | null> {
  if (request.amountCents <= 0n) throw new RangeError('an adjusting entry moves a positive amount (the contract checks it)');
  if (!isAdjustable(request.debitAccount)) return { kind: 'invalid', field: 'debitAccount', message: "choose one of the bank's own accounts to debit" };
  if (!isAdjustable(request.creditAccount)) return { kind: 'invalid', field: 'creditAccount', message: "choose one of the bank's own accounts to credit" };
  if (request.creditAccount === request.debitAccount)
    return { kind: 'invalid', field: 'creditAccount', message: 'choose an account other than the one debited' };
  if (request.postedOn === undefined) return null;
  const closedThrough = await closedThroughOf(deps.db);
  if (closedThrough !== null && request.postedOn <= closedThrough) return closedDay(request.postedOn, closedThrough);
  const today = await bankDate(deps.db, deps.config, deps.clock);
  // The open day itself is always allowed: a close may run ahead of the bank's date (end of day through today, or a sandbox's time machine).
  const openDay = closedThrough === null ? today : addDays(closedThrough, 1);
  if (request.postedOn <= today || request.postedOn === openDay) return null;
  const latest = openDay > today ? `the open day (${openDay})` : `the bank's date (${today})`;
  return { kind: 'invalid', field: 'postedOn', message: `choose a day on or before ${latest}` };
}

/**
 * A finance member's adjusting entry between two operator accounts (chart.ts adjustableAccounts),
 * booked on the open day (or postedOn: an open day not after the bank's date, or the open day itself). At or above
 * adjustmentFourEyesCents it waits for a second, independent member (decideAdjustment). When
 * `exceptionId` is given, the entry is named on that open exception in the same transaction, and
 * the exception is resolved ('adjusted') when the entry posts. Every request is audited with its reason.
 */
export async function requestAdjustment(
  deps: BooksDependencies,
  request: { debitAccount: string; creditAccount: string; amountCents: bigint; reason: string; postedOn?: string; exceptionId?: string },
  actor: StaffActor,
): Promise<AdjustmentOutcome> {
  const id = randomUUID();
  const details = {
    reason: request.reason,
    debitAccount: request.debitAccount,
    creditAccount: request.creditAccount,
    amountCents: Number(request.amountCents),
    postedOn: request.postedOn ?? null,
    exceptionId: request.exceptionId ?? null,
  };
  const refuse = async (outcome: Extract<AdjustmentOutcome, { kind: 'invalid' | 'business_day_closed' }>) => {
    const refusal: Record<string, string> =
      outcome.kind === 'invalid' ? { refusal: 'invalid', field: outcome.field } : { refusal: 'business_day_closed', closedThrough: outcome.closedThrough };
    await recordAudit(
      deps.db,
      auditEntryOf(actor, { action: 'books.adjustment_refused', subject: id, outcome: 'failure', details: { ...details, ...refusal } }),
    );
    return outcome;
  };
  const invalid = await invalidRequest(deps, request);
  if (invalid) return refuse(invalid);
  const { debitAccount, creditAccount } = request;
  if (!isAdjustable(debitAccount) || !isAdjustable(creditAccount)) throw new Error('the accounts were checked above');
  const fourEyes = request.amountCents >= BigInt(adjustmentFourEyesCents);
  const entry: Entry = { id, debitAccount, creditAccount, amountCents: request.amountCents, postedOn: request.postedOn ?? null };
  try {
    return await retryOnWriteConflict(() =>
      deps.db.transaction(async (tx): Promise<AdjustmentOutcome> => {
        const at = sqlInstant(deps.clock);
        const bookedOn = fourEyes ? null : await postEntry(deps, tx, entry);
        await insertAdjustment(tx, {
          ...entry,
          postedOn: bookedOn ?? entry.postedOn,
          reason: request.reason,
          requestedBy: actor.staffId,
          exceptionId: request.exceptionId ?? null,
          transferId: bookedOn === null ? null : id,
          at,
        });
        if (request.exceptionId !== undefined) {
          if (!(await linkException(tx, request.exceptionId, id)))
            throw new ExceptionNotOpenError(`exception ${request.exceptionId} is not open for an adjusting entry`);
          if (bookedOn !== null && !(await resolveAdjustedException(tx, request.exceptionId, id, { resolvedBy: actor.staffId, reason: request.reason, at })))
            throw new Error(`exception ${request.exceptionId} was linked to entry ${id} and could not be resolved`);
        }
        await recordAudit(
          tx,
          auditEntryOf(actor, {
            action: fourEyes ? 'books.adjustment_requested' : 'books.adjustment_posted',
            subject: id,
            outcome: 'success',
            details: { ...details, bookedOn },
          }),
        );
        return { kind: fourEyes ? 'awaiting_approval' : 'posted', adjustment: await presented(tx, id) };
      }),
    );
  } catch (error) {
    // The day closed between the check above and the insert: the trigger refused it, and nothing was written.
    if (!isBusinessDayClosedError(error) || request.postedOn === undefined) throw error;
    return refuse(closedDay(request.postedOn, (await closedThroughOf(deps.db)) ?? request.postedOn));
  }
}

/**
 * Approve (posts the entry on the day it asked for, or the open day; resolves its exception) or
 * reject (the exception it named may be resolved again). Decisions of one entry are taken one at a
 * time under its row lock; a second one answers already_decided. The member who asked may reject
 * (withdraw) their own entry but not approve it, nor may a member linked to them.
 */
export async function decideAdjustment(
  deps: BooksDependencies,
  id: string,
  decision: { decision: 'approve' | 'reject'; reason: string },
  actor: StaffActor,
): Promise<DecideAdjustmentOutcome> {
  const audit = (db: Queryable, action: string, outcome: 'success' | 'failure' | 'denied', details: Record<string, string | number | null>) =>
    recordAudit(db, auditEntryOf(actor, { action, subject: id, outcome, details: { reason: decision.reason, decision: decision.decision, ...details } }));
  let askedFor: string | null = null;
  try {
    return await retryOnWriteConflict(() =>
      deps.db.transaction(async (tx): Promise<DecideAdjustmentOutcome> => {
        const row = await findAdjustment(tx, id, true);
        if (!row) return { kind: 'not_found' };
        askedFor = row.posted_on;
        if (row.status !== 'awaiting_approval') {
          await audit(tx, 'books.adjustment_decision_refused', 'failure', { refusal: 'already_decided', status: row.status });
          return { kind: 'already_decided', adjustment: presentAdjustment(row) };
        }
        if (decision.decision === 'approve') {
          const refusal =
            row.requested_by === actor.staffId ? 'same_staff' : (await approversLinked(tx, actor.staffId, [row.requested_by])) ? 'linked_staff' : null;
          if (refusal) {
            await audit(tx, 'books.adjustment_four_eyes_refused', 'denied', { refusal, requestedBy: row.requested_by });
            return { kind: 'four_eyes_required', refusal };
          }
        }
        const at = sqlInstant(deps.clock);
        let bookedOn: string | null = null;
        if (decision.decision === 'approve') {
          if (!isAdjustable(row.debit_account) || !isAdjustable(row.credit_account))
            throw new Error(`adjusting entry ${id} names an account that is not the bank's own`);
          const entry = { id, debitAccount: row.debit_account, creditAccount: row.credit_account, amountCents: row.amount_cents, postedOn: row.posted_on };
          bookedOn = await postEntry(deps, tx, entry);
        }
        const status = decision.decision === 'approve' ? 'posted' : 'rejected';
        const decided = await decideAdjustmentRow(tx, id, {
          status,
          decidedBy: actor.staffId,
          reason: decision.reason,
          transferId: bookedOn === null ? null : id,
          postedOn: bookedOn,
          at,
        });
        if (!decided) throw new Error(`adjusting entry ${id} was locked awaiting approval and could not be decided`);
        if (row.exception_id !== null) {
          if (bookedOn === null) await unlinkException(tx, row.exception_id, id);
          else if (!(await resolveAdjustedException(tx, row.exception_id, id, { resolvedBy: row.requested_by, reason: row.reason, at })))
            throw new Error(`exception ${row.exception_id} of entry ${id} is no longer open`);
        }
        await audit(tx, status === 'posted' ? 'books.adjustment_approved' : 'books.adjustment_rejected', 'success', {
          requestedBy: row.requested_by,
          amountCents: Number(row.amount_cents),
          bookedOn,
          exceptionId: row.exception_id,
        });
        const adjustment = await presented(tx, id);
        return status === 'posted' ? { kind: 'posted', adjustment } : { kind: 'rejected', adjustment };
      }),
    );
  } catch (error) {
    // The day it asked for closed while it waited (or between the check and the insert): nothing was written; it may be rejected and asked again.
    if (!isBusinessDayClosedError(error) || askedFor === null) throw error;
    const closedThrough = (await closedThroughOf(deps.db)) ?? askedFor;
    await audit(deps.db, 'books.adjustment_decision_refused', 'failure', { refusal: 'business_day_closed', closedThrough });
    return closedDay(askedFor, closedThrough);
  }
}

/** `GET /staff/books/adjustments?status=&cursor=`: newest first, one page. */
export async function adjustmentPage(
  db: Queryable,
  status: AdjustmentStatus | undefined,
  cursor: string | undefined,
): Promise<{ items: Adjustment[]; nextCursor: string | null }> {
  const rows = await listAdjustments(db, status, decodeCursor(cursor), adjustmentPageSize);
  const { page, nextCursor } = keysetPage(rows, adjustmentPageSize);
  return { items: page.map(presentAdjustment), nextCursor };
}

/** `GET /staff/books/accounts`: the chart, and the bank's own accounts an adjusting entry may name, each with the general-ledger account it books to. */
export async function booksAccounts(db: Queryable): Promise<BooksAccountsResponse> {
  const chart = await chartOf(db);
  return {
    chart: chart.map((gl) => ({ account: gl.account, name: gl.name, type: gl.type, contra: gl.contra === true })),
    adjustable: adjustableAccounts.map((key) => {
      const target = glAccountOfCode[operatorAccountCodes[key]];
      if (target === 'deposits') throw new Error(`operator account ${key} books to customer deposits`);
      return { key, name: glAccounts[target].name, glAccount: glAccounts[target].account };
    }),
  };
}
