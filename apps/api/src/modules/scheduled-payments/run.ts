import { formatMoney } from '@strongroom/contracts/money.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { addDays, nextBusinessDay } from '../../platform/business-calendar.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { requestScheduledPayment, type PaymentDependencies } from '../payments/service.ts';
import { writeOccurrencesBefore } from './materialize.ts';
import { cutoffInstant } from './occurrences.ts';
import {
  completeIfFinished,
  lockOccurrenceToPay,
  lockSchedule,
  occurrencesDueThrough,
  schedulesDueThrough,
  updateOccurrence,
  type OccurrenceChange,
  type OccurrenceRow,
} from './repository.ts';
import { withScheduledPaymentsLock } from './run-lock.ts';

export interface ScheduledRunResult {
  paid: number;
  /** Refused for want of money the first time: tried again the next business day. */
  retrying: number;
  /** Refused for want of money twice. */
  skipped: number;
  /** Refused for any other reason: a freeze, a closed account, a deleted payee. */
  failed: number;
}

/** Schedules or occurrences taken per statement; a run takes batches until none is left. */
const batchSize = 100;
/** A run never loops more than this many batches: each batch moves every row it took forward. */
const maxBatches = 10_000;

type DueOccurrence = OccurrenceRow & { customer_id: string; payee_name: string };
type Outcome =
  | { kind: 'paid'; transferId: string; held: boolean }
  | { kind: 'retrying'; retryDate: string; reason: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/**
 * Pays every occurrence due (docs/bill-pay.md): dated before `through`, or on it once its cut-off
 * has passed at `now` (end of day through D passes the end of D: all of D), and every retry due
 * by then. Each goes through payments' one path (freeze, review rules, limits, the commit group)
 * under an Idempotency-Key derived from the schedule, the due date and the attempt, so a run
 * interrupted after a payment committed and before its occurrence was recorded replays the
 * stored answer when run again, and no money moves twice. One run at a time (run-lock.ts).
 */
export async function runScheduledPayments(dependencies: PaymentDependencies, run: { through: string; now: Date }): Promise<ScheduledRunResult> {
  const { db, config } = dependencies;
  const cutoffPassed = run.now.getTime() >= cutoffInstant(run.through, config.achCutoff, config.bankTimeZone).getTime();
  const dueThrough = cutoffPassed ? run.through : addDays(run.through, -1);
  return withScheduledPaymentsLock(db, async () => {
    await writeDueOccurrences(dependencies, dueThrough);
    return payDueOccurrences(dependencies, run.through, dueThrough);
  });
}

/** The occurrences of the series that have fallen due, written to be paid with the schedule's payment as it is now. */
async function writeDueOccurrences(dependencies: PaymentDependencies, dueThrough: string): Promise<void> {
  const { db } = dependencies;
  const now = sqlInstant(dependencies.clock);
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const ids = await schedulesDueThrough(db, dueThrough, batchSize);
    if (ids.length === 0) return;
    for (const id of ids) {
      await retryOnWriteConflict(() =>
        db.transaction(async (tx) => {
          const schedule = await lockSchedule(tx, id);
          if (schedule) await writeOccurrencesBefore(tx, schedule, addDays(dueThrough, 1), now);
        }),
      );
    }
  }
  throw new Error(`scheduled payments: more than ${maxBatches} batches of schedules due through ${dueThrough}`);
}

async function payDueOccurrences(dependencies: PaymentDependencies, through: string, dueThrough: string): Promise<ScheduledRunResult> {
  const result: ScheduledRunResult = { paid: 0, retrying: 0, skipped: 0, failed: 0 };
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const due = await occurrencesDueThrough(dependencies.db, dueThrough, batchSize);
    if (due.length === 0) return result;
    for (const occurrence of due) {
      const outcome = await payOccurrence(dependencies, occurrence, through);
      if (outcome) result[outcome] += 1;
    }
  }
  throw new Error(`scheduled payments: more than ${maxBatches} batches of occurrences due through ${dueThrough}`);
}

/** One attempt at one occurrence, and what became of it, recorded with its notification. */
async function payOccurrence(dependencies: PaymentDependencies, occurrence: DueOccurrence, through: string): Promise<Outcome['kind'] | undefined> {
  const attempt = occurrence.attempts + 1;
  const outcome = await attemptPayment(dependencies, occurrence, attempt, through);
  const now = sqlInstant(dependencies.clock);
  const recorded = await retryOnWriteConflict(() =>
    dependencies.db.transaction(async (tx) => {
      // Still to be paid at this attempt: a customer's skip or cancellation before the cut-off came first.
      if (!(await lockOccurrenceToPay(tx, occurrence.schedule_id, occurrence.due_date, occurrence.attempts))) return false;
      await recordOutcome(tx, occurrence, attempt, outcome, now);
      return true;
    }),
  );
  if (!recorded) return undefined;
  dependencies.liveEvents?.publish(occurrence.customer_id, 'notifications');
  return outcome.kind;
}

async function attemptPayment(dependencies: PaymentDependencies, occurrence: DueOccurrence, attempt: number, through: string): Promise<Outcome> {
  const { schedule_id: scheduleId, due_date: dueDate } = occurrence;
  try {
    const result = await requestScheduledPayment(dependencies, occurrence.customer_id, occurrence.payment, {
      idempotencyKey: derivedUuid('scheduled-payment', scheduleId, dueDate, String(attempt)),
      requestId: `scheduled-payment:${scheduleId}:${dueDate}:${attempt}`,
    });
    if (result.outcome === 'made') return { kind: 'paid', transferId: result.payment.id, held: result.payment.status === 'in_review' };
    if (attempt === 1) return { kind: 'retrying', retryDate: nextBusinessDay(through), reason: result.refusal.message };
    return { kind: 'skipped', reason: result.refusal.message };
  } catch (error) {
    // Expected refusals (a freeze, a closed account, a payee deleted) are answers; anything else is a fault.
    if (error instanceof AppError) return { kind: 'failed', reason: error.message };
    throw error;
  }
}

function changeOf(outcome: Outcome, attempt: number): OccurrenceChange {
  switch (outcome.kind) {
    case 'paid':
      return { status: 'paid', attempts: attempt, retryDate: null, transferId: outcome.transferId, reason: null };
    case 'retrying':
      return { status: 'scheduled', attempts: attempt, retryDate: outcome.retryDate, transferId: null, reason: outcome.reason };
    case 'skipped':
    case 'failed':
      return { status: outcome.kind, attempts: attempt, retryDate: null, transferId: null, reason: outcome.reason };
  }
}

async function recordOutcome(tx: Queryable, occurrence: DueOccurrence, attempt: number, outcome: Outcome, now: Date | null): Promise<void> {
  await updateOccurrence(tx, occurrence.schedule_id, occurrence.due_date, changeOf(outcome, attempt), now);
  const text = notificationText(occurrence, outcome);
  // A payment held for review is told of by the payments module ("Payment in review").
  if (text) {
    await notifyCustomer(tx, {
      customerId: occurrence.customer_id,
      kind: 'scheduled_payment',
      name: outcome.kind === 'paid' ? 'Scheduled payment sent' : outcome.kind === 'retrying' ? 'Scheduled payment not sent yet' : 'Scheduled payment not sent',
      text,
      link: `/payments/scheduled/${occurrence.schedule_id}`,
      paymentId: outcome.kind === 'paid' ? outcome.transferId : null,
    });
  }
  await completeIfFinished(tx, occurrence.schedule_id, now);
}

/** "Tue, Mar 17": a business day as the notifications name it. */
export function dayInWords(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function notificationText(occurrence: DueOccurrence, outcome: Outcome): string | null {
  const payment = `Your scheduled payment of ${formatMoney(BigInt(occurrence.payment.amountCents))} to ${occurrence.payee_name}`;
  switch (outcome.kind) {
    case 'paid':
      return outcome.held ? null : `${payment} was sent.`;
    case 'retrying':
      return `${payment} could not be sent: ${outcome.reason} We will try again on ${dayInWords(outcome.retryDate)}; add money before then or this payment will be skipped.`;
    case 'skipped':
      return `${payment} was skipped: ${outcome.reason} Your other scheduled payments go on as planned.`;
    case 'failed':
      return `${payment} was not sent: ${outcome.reason}`;
  }
}
