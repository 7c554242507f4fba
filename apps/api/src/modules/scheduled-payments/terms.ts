import type { z } from 'zod';
import { maxScheduleDaysAhead, scheduleMessages, type createScheduledPaymentRequestSchema } from '@strongroom/contracts/scheduled-payments.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { AppError } from '../../platform/errors.ts';
import type { CustomerActor } from '../../platform/request-actor.ts';
import type { ScheduledPaymentPlan } from '../payments/service.ts';
import type { ScheduleTerms } from './repository.ts';
import { seriesNext, type BankDay } from './series.ts';

/** What a schedule is made or edited with: the body of `POST` and `PUT /scheduled-payments`, checked against the bank's date. */
export type ScheduleBody = z.output<typeof createScheduledPaymentRequestSchema>;

export function fieldError(name: string, message: string): AppError {
  return new AppError('validation_failed', message, { fields: { [name]: message } });
}

/** The dates a schedule may have (the contract checks their order): not before today when made, at most a year ahead. */
export function checkDates(body: ScheduleBody, day: BankDay, creating: boolean): void {
  if (creating && body.startDate < day.today) throw fieldError('startDate', scheduleMessages.startInPast);
  const latest = addDays(day.today, maxScheduleDaysAhead);
  if (body.startDate > latest) throw fieldError('startDate', scheduleMessages.tooFarAhead);
  if (body.endDate !== undefined && body.endDate > latest) throw fieldError('endDate', scheduleMessages.tooFarAhead);
}

/** The schedule's terms from the body and its plan, its series starting at the earliest payment date. */
export function termsOf(body: ScheduleBody, plan: ScheduledPaymentPlan, day: BankDay): ScheduleTerms {
  const terms: ScheduleTerms = {
    payment: body.payment,
    fromAccountId: plan.fromAccountId,
    kind: plan.kind,
    amountCents: plan.amountCents,
    payeeName: plan.payeeName,
    description: plan.description,
    startDate: body.startDate,
    frequency: body.frequency,
    dayOfMonth: typeof body.dayOfMonth === 'number' ? body.dayOfMonth : null,
    lastBusinessDay: body.dayOfMonth === 'last',
    endDate: body.endDate ?? null,
    count: body.count ?? null,
    floorDate: day.earliest,
    appliesFrom: day.today,
    nextDate: null,
  };
  const first = seriesNext(seriesRowOf(terms), day.earliest, 1)[0];
  if (!first) throw fieldError('endDate', scheduleMessages.endBeforeStart);
  return { ...terms, nextDate: first.date };
}

function seriesRowOf(terms: ScheduleTerms) {
  return {
    start_date: terms.startDate,
    frequency: terms.frequency,
    day_of_month: terms.dayOfMonth,
    last_business_day: terms.lastBusinessDay,
    end_date: terms.endDate,
    count: terms.count,
    floor_date: terms.floorDate,
    applies_from: terms.appliesFrom,
  };
}

/** The step-up a schedule's payment needs, bound to this request's key and body, as `POST /transfers` binds its own. */
export function challengeOf(actor: CustomerActor, idempotencyKey: string, hash: Buffer, plan: ScheduledPaymentPlan) {
  return { customerId: actor.customerId, idempotencyKey, requestHash: hash, amountCents: plan.amountCents, purpose: plan.purpose, requestId: actor.requestId };
}

/** Thrown inside a transaction whose step-up could not be used: nothing it wrote is kept. */
export class StepUpNotUsable extends Error {}
