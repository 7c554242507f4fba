import { maxScheduleDaysAhead, type ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { accountFrozenMessage, openFreezeOf } from '../../platform/account-freeze.ts';
import { recordAudit } from '../../platform/audit.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { planScheduledPayment } from '../payments/service.ts';
import { consumeStepUp, requireStepUp, stepUpDependencies } from '../step-up/service.ts';
import { writeOccurrencesBefore } from './materialize.ts';
import {
  cancelScheduleRows,
  insertOccurrences,
  occurrenceRowsOf,
  pendingOccurrenceRows,
  skipOccurrenceRow,
  updateScheduleTerms,
  type ScheduleRow,
} from './repository.ts';
import { bankDayOf, seriesBetween, type BankDay } from './series.ts';
import { clockOf, customerSchedule, endpoint, occurrenceHistoryLimit, present, type ScheduledPaymentDependencies } from './service.ts';
import { challengeOf, checkDates, StepUpNotUsable, termsOf, type ScheduleBody } from './terms.ts';

/**
 * Changing a schedule (docs/bill-pay.md): an edit, a skip or a cancellation applies to the
 * occurrences whose cut-off has not passed; those past it are written first and go as they were.
 */

/** A schedule that can still change: active, its occurrences past their cut-off written first (they go as they were). */
async function changeableSchedule(tx: Queryable, customerId: string, id: string, day: BankDay, now: Date | null): Promise<ScheduleRow> {
  const schedule = await customerSchedule(tx, customerId, id, true);
  if (schedule.status !== 'active') throw new AppError('schedule_ended', endedMessage(schedule));
  return writeOccurrencesBefore(tx, schedule, day.earliest, now);
}

function endedMessage(schedule: ScheduleRow): string {
  return schedule.status === 'cancelled' ? 'This scheduled payment was cancelled.' : 'This scheduled payment has made its last payment.';
}

const pastCutoffMessage = "Today's cut-off has passed: this payment is already being sent.";
const nothingLeftMessage = 'Every payment of this schedule has passed its cut-off: there is nothing left to change.';

/**
 * `PUT /scheduled-payments/{id}`: a new payment and recurrence for every occurrence whose cut-off
 * has not passed (those past it go as they were). A payment that needs a step-up asks for one, as
 * a new schedule would: an edit cannot pay a new payee without it.
 */
export async function editSchedule(
  dependencies: ScheduledPaymentDependencies,
  actor: CustomerActor,
  id: string,
  body: ScheduleBody,
  headers: { idempotencyKey?: string; stepUpChallengeId?: string },
): Promise<ScheduledPayment> {
  const { db } = dependencies;
  const now = sqlInstant(dependencies.clock);
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const existing = await customerSchedule(db, actor.customerId, id);
  if (existing.status !== 'active') throw new AppError('schedule_ended', endedMessage(existing));
  if (await openFreezeOf(db, actor.customerId)) throw new AppError('account_frozen', accountFrozenMessage);
  const plan = await planScheduledPayment(dependencies, actor.customerId, body.payment);
  checkDates(body, day, false);
  const terms = termsOf(body, plan, day);
  const hash = requestHash(`${endpoint}/${id}`, body);
  const idempotencyKey = headers.idempotencyKey ?? `scheduled-payment-edit:${id}`;
  const stepUp = stepUpDependencies(dependencies);
  const challenge = challengeOf(actor, idempotencyKey, hash, plan);
  if (plan.needsStepUp && !headers.stepUpChallengeId) await requireStepUp(stepUp, challenge);
  try {
    const edited = await db.transaction(async (tx) => {
      const schedule = await changeableSchedule(tx, actor.customerId, id, day, now);
      const left = (await pendingOccurrenceRows(tx, [id])).some((row) => row.status === 'scheduled' && (row.retry_date ?? row.date) >= day.earliest);
      if (schedule.next_date === null && !left) throw new AppError('past_cutoff', nothingLeftMessage);
      if (plan.needsStepUp && !(await consumeStepUp(tx, actor.customerId, headers.stepUpChallengeId ?? '', idempotencyKey, hash))) {
        throw new StepUpNotUsable();
      }
      await updateScheduleTerms(tx, id, terms, now);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'scheduled_payment.edit',
          subject: id,
          outcome: 'success',
          details: { kind: plan.kind, amountCents: plan.amountCents.toString(), frequency: body.frequency, stepUp: plan.needsStepUp },
        }),
      );
      return customerSchedule(tx, actor.customerId, id);
    });
    return present(db, edited, day);
  } catch (error) {
    if (error instanceof StepUpNotUsable) return requireStepUp(stepUp, challenge);
    throw error;
  }
}

/**
 * `POST /scheduled-payments/{id}/skip`: the occurrence paid on `date` is not paid. Until that
 * date's cut-off; skipping one already skipped answers the same.
 */
export async function skipOccurrence(dependencies: ScheduledPaymentDependencies, actor: CustomerActor, id: string, date: string): Promise<ScheduledPayment> {
  const { db } = dependencies;
  const now = sqlInstant(dependencies.clock);
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const skipped = await db.transaction(async (tx) => {
    const schedule = await changeableSchedule(tx, actor.customerId, id, day, now);
    const written = (await occurrenceRowsOf(tx, id, occurrenceHistoryLimit)).find((row) => (row.retry_date ?? row.date) === date || row.date === date);
    if (written?.status === 'skipped') return schedule;
    if (written) {
      if (written.status !== 'scheduled' || date < day.earliest) throw new AppError('past_cutoff', pastCutoffMessage);
      await skipOccurrenceRow(tx, id, written.due_date, now);
    } else {
      if (date > addDays(day.today, maxScheduleDaysAhead)) throw new AppError('not_an_occurrence', `A payment can be skipped at most a year ahead.`);
      const planned =
        schedule.next_date === null ? undefined : seriesBetween(schedule, schedule.next_date, date).find((occurrence) => occurrence.date === date);
      if (!planned) throw new AppError('not_an_occurrence', `This scheduled payment has no payment on ${date}.`);
      if (date < day.earliest) throw new AppError('past_cutoff', pastCutoffMessage);
      await insertOccurrences(tx, id, [{ dueDate: planned.dueDate, date, status: 'skipped', payment: schedule.payment, reason: 'Skipped by you' }]);
    }
    await recordAudit(tx, auditEntryOf(actor, { action: 'scheduled_payment.skip', subject: id, outcome: 'success', details: { date } }));
    return schedule;
  });
  return present(db, skipped, day);
}

/** `DELETE /scheduled-payments/{id}`: every occurrence whose cut-off has not passed is cancelled; one past it still goes. */
export async function cancelSchedule(dependencies: ScheduledPaymentDependencies, actor: CustomerActor, id: string): Promise<ScheduledPayment> {
  const { db } = dependencies;
  const now = sqlInstant(dependencies.clock);
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const cancelled = await db.transaction(async (tx) => {
    const current = await customerSchedule(tx, actor.customerId, id, true);
    if (current.status === 'cancelled') return current;
    const schedule = await changeableSchedule(tx, actor.customerId, id, day, now);
    const left = (await pendingOccurrenceRows(tx, [id])).some((row) => row.status === 'scheduled' && (row.retry_date ?? row.date) >= day.earliest);
    if (schedule.next_date === null && !left) throw new AppError('past_cutoff', nothingLeftMessage);
    await cancelScheduleRows(tx, id, day.earliest, now);
    await recordAudit(tx, auditEntryOf(actor, { action: 'scheduled_payment.cancel', subject: id, outcome: 'success' }));
    return customerSchedule(tx, actor.customerId, id);
  });
  return present(db, cancelled, day);
}
