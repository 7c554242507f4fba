import { randomUUID } from 'node:crypto';
import { type Occurrence, type ScheduledPayment, type UpcomingPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { systemClock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { accountFrozenMessage, openFreezeOf } from '../../platform/account-freeze.ts';
import { recordAudit } from '../../platform/audit.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { AppError } from '../../platform/errors.ts';
import { assertSameRequest, requestHash } from '../../platform/idempotency.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { planScheduledPayment, type PaymentDependencies } from '../payments/service.ts';
import { consumeStepUp, requireStepUp, stepUpDependencies } from '../step-up/service.ts';
import { runScheduledPayments } from './run.ts';
import { presentOccurrences, presentSchedule, presentUpcoming } from './presenter.ts';
import {
  countActiveSchedules,
  findCustomerSchedule,
  findScheduleByKey,
  insertSchedule,
  listCustomerSchedules,
  occurrenceRowsOf,
  pendingOccurrenceRows,
  type ScheduleRow,
} from './repository.ts';
import { bankDayOf, type BankDay } from './series.ts';
import { challengeOf, checkDates, StepUpNotUsable, termsOf, type ScheduleBody } from './terms.ts';

/** What app.ts and the ops registry use of scheduled payments. */
export { runScheduledPayments, type ScheduledRunResult } from './run.ts';
export { registerScheduledPaymentJobs } from './jobs.ts';

/**
 * End of day's hook (app.ts, the ops command): before a business day D is closed, every occurrence
 * due up to D is paid, all of D counting as past its cut-off.
 */
export function payScheduledBeforeDay(dependencies: PaymentDependencies): (day: string) => Promise<void> {
  return async (day) => {
    const endOfDay = new Date(startOfDayIn(dependencies.config.bankTimeZone, addDays(day, 1)).getTime() - 1);
    await runScheduledPayments(dependencies, { through: day, now: endOfDay });
  };
}

/**
 * Payments later or repeating (docs/bill-pay.md; contract: packages/contracts/src/scheduled-payments.ts).
 * A schedule is planned as `POST /transfers` plans a payment (the same checks, a step-up when the
 * payment needs one, D10) but moves no money: the job pays each occurrence at its date's cut-off
 * (run.ts). Until then the customer may edit, skip or cancel it.
 */
export type ScheduledPaymentDependencies = PaymentDependencies;

/** A customer's schedules answered at most (newest first), and active ones at most: each is a job's work every day. */
export const scheduleListLimit = 200;
export const maxActiveSchedules = 100;
/** A schedule's occurrences written (paid, skipped...) shown at most: the latest. */
export const occurrenceHistoryLimit = 520;
const notFoundMessage = 'No such scheduled payment';
export const endpoint = 'scheduled-payments';

export function clockOf(dependencies: ScheduledPaymentDependencies) {
  return dependencies.clock ?? systemClock;
}

export async function present(db: Queryable, schedule: ScheduleRow, day: BankDay): Promise<ScheduledPayment> {
  return presentSchedule(schedule, await pendingOccurrenceRows(db, [schedule.id]), day);
}

/**
 * `POST /scheduled-payments`: the payment checked as `POST /transfers` checks it, the dates against
 * the bank's date, a step-up when the payment needs one; a replay of the Idempotency-Key answers
 * the schedule it made, the same key with another body is refused.
 */
export async function createSchedule(
  dependencies: ScheduledPaymentDependencies,
  actor: CustomerActor,
  body: ScheduleBody,
  headers: { idempotencyKey: string; stepUpChallengeId?: string },
): Promise<ScheduledPayment> {
  const { db } = dependencies;
  const hash = requestHash(endpoint, body);
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  if (await openFreezeOf(db, actor.customerId)) throw new AppError('account_frozen', accountFrozenMessage);
  const earlier = await findScheduleByKey(db, actor.customerId, headers.idempotencyKey);
  if (earlier) {
    assertSameRequest(earlier.request_hash, hash);
    return present(db, earlier, day);
  }
  const plan = await planScheduledPayment(dependencies, actor.customerId, body.payment);
  checkDates(body, day, true);
  const terms = termsOf(body, plan, day);
  if ((await countActiveSchedules(db, actor.customerId)) >= maxActiveSchedules) {
    throw new AppError('conflict', `You have ${maxActiveSchedules} scheduled payments: cancel one before adding another.`);
  }
  const stepUp = stepUpDependencies(dependencies);
  const challenge = challengeOf(actor, headers.idempotencyKey, hash, plan);
  if (plan.needsStepUp && !headers.stepUpChallengeId) await requireStepUp(stepUp, challenge);
  const id = randomUUID();
  let created: ScheduleRow | undefined;
  try {
    created = await db.transaction(async (tx) => {
      const row = await insertSchedule(tx, { ...terms, id, customerId: actor.customerId, idempotencyKey: headers.idempotencyKey, requestHash: hash });
      if (!row) return undefined;
      // The step-up is used by the request that makes the schedule, as commit-group.ts uses a payment's.
      if (plan.needsStepUp && !(await consumeStepUp(tx, actor.customerId, headers.stepUpChallengeId ?? '', headers.idempotencyKey, hash))) {
        throw new StepUpNotUsable();
      }
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'scheduled_payment.create',
          subject: id,
          outcome: 'success',
          details: { kind: plan.kind, amountCents: plan.amountCents.toString(), frequency: body.frequency, stepUp: plan.needsStepUp },
        }),
      );
      return row;
    });
  } catch (error) {
    if (error instanceof StepUpNotUsable) return requireStepUp(stepUp, challenge);
    throw error;
  }
  if (created) return present(db, created, day);
  // Another request with this key made it first: its schedule is the answer.
  const raced = await findScheduleByKey(db, actor.customerId, headers.idempotencyKey);
  if (!raced) throw new AppError('conflict', 'This scheduled payment is already being made. Check your scheduled payments.');
  assertSameRequest(raced.request_hash, hash);
  return present(db, raced, day);
}

export async function listSchedules(dependencies: ScheduledPaymentDependencies, customerId: string): Promise<ScheduledPayment[]> {
  const { db } = dependencies;
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const schedules = await listCustomerSchedules(db, customerId, scheduleListLimit);
  const pending = await pendingOccurrenceRows(
    db,
    schedules.map((schedule) => schedule.id),
  );
  return schedules.map((schedule) =>
    presentSchedule(
      schedule,
      pending.filter((row) => row.schedule_id === schedule.id),
      day,
    ),
  );
}

/** `GET /scheduled-payments/upcoming`: every occurrence of the next 90 days across the customer's schedules, retries included. */
export async function upcomingPayments(dependencies: ScheduledPaymentDependencies, customerId: string): Promise<UpcomingPayment[]> {
  const { db } = dependencies;
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const schedules = await listCustomerSchedules(db, customerId, scheduleListLimit);
  const pending = await pendingOccurrenceRows(
    db,
    schedules.map((schedule) => schedule.id),
  );
  return presentUpcoming(
    schedules.map((schedule) => ({ schedule, pending: pending.filter((row) => row.schedule_id === schedule.id) })),
    day,
  );
}

export async function customerSchedule(db: Queryable, customerId: string, id: string, forUpdate = false): Promise<ScheduleRow> {
  const schedule = isUuid(id) ? await findCustomerSchedule(db, customerId, id, forUpdate) : undefined;
  if (!schedule) throw new AppError('not_found', notFoundMessage);
  return schedule;
}

export async function scheduleDetail(
  dependencies: ScheduledPaymentDependencies,
  customerId: string,
  id: string,
): Promise<{ schedule: ScheduledPayment; occurrences: Occurrence[] }> {
  const { db } = dependencies;
  const day = await bankDayOf(db, dependencies.config, clockOf(dependencies));
  const schedule = await customerSchedule(db, customerId, id);
  const pending = await pendingOccurrenceRows(db, [schedule.id]);
  const written = await occurrenceRowsOf(db, schedule.id, occurrenceHistoryLimit);
  return { schedule: presentSchedule(schedule, pending, day), occurrences: presentOccurrences(schedule, written, pending, day) };
}
