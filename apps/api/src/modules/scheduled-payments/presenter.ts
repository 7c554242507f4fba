import {
  upcomingDays,
  type Occurrence,
  type ScheduledPayment,
  type UpcomingOccurrence,
  type UpcomingPayment,
} from '@strongroom/contracts/scheduled-payments.ts';
import { centsToJson } from '../../platform/money.ts';
import { arrivesBy } from './occurrences.ts';
import type { OccurrenceRow, ScheduleRow } from './repository.ts';
import { horizonOf, scheduleKindOf, seriesBetween, seriesNext, type BankDay } from './series.ts';

/** How many dates a schedule's `next` lists. */
export const nextDatesShown = 5;

type Ahead = UpcomingOccurrence & { retry: boolean };

/**
 * What is ahead of a schedule in the next 90 days, soonest first: its occurrences being paid or
 * waiting for a retry (written rows), then those the series has not reached yet. Each can change
 * until its date's cut-off.
 */
export function aheadOf(schedule: ScheduleRow, pending: readonly OccurrenceRow[], day: BankDay): Ahead[] {
  const horizon = horizonOf(day, upcomingDays);
  const written = new Set(pending.map((row) => row.due_date));
  const items: Ahead[] = [];
  for (const row of pending) {
    if (row.status !== 'scheduled') continue;
    const date = row.retry_date ?? row.date;
    if (date > horizon) continue;
    const kind = scheduleKindOf(row.payment.kind);
    items.push({ date, dueDate: row.due_date, arrivesBy: arrivesBy(kind, date), changeable: date >= day.earliest, retry: row.retry_date !== null });
  }
  if (schedule.status === 'active' && schedule.next_date !== null) {
    for (const occurrence of seriesBetween(schedule, schedule.next_date, horizon)) {
      if (written.has(occurrence.dueDate)) continue;
      const { date, dueDate } = occurrence;
      items.push({ date, dueDate, arrivesBy: arrivesBy(schedule.kind, date), changeable: date >= day.earliest, retry: false });
    }
  }
  return items.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The next dates the schedule pays on, however far ahead. */
function nextDatesOf(schedule: ScheduleRow, pending: readonly OccurrenceRow[]): string[] {
  const waiting = pending.filter((row) => row.status === 'scheduled').map((row) => row.retry_date ?? row.date);
  const written = new Set(pending.map((row) => row.due_date));
  const series =
    schedule.status === 'active' && schedule.next_date !== null
      ? seriesNext(schedule, schedule.next_date, nextDatesShown + written.size)
          .filter((occurrence) => !written.has(occurrence.dueDate))
          .map((occurrence) => occurrence.date)
      : [];
  return [...waiting, ...series].sort().slice(0, nextDatesShown);
}

/** The recipient as the schedule's body names it, so Edit can show the form filled in (the customer typed or chose all of it). */
function recipientOf(body: ScheduleRow['payment']): Omit<ScheduledPayment['payment'], 'kind' | 'fromAccountId' | 'amountCents' | 'message'> {
  switch (body.kind) {
    case 'own':
      return { toAccountId: body.toAccountId };
    case 'bill':
      return { billPayeeId: body.billPayeeId };
    case 'internal':
      return { toAccountNumber: body.toAccountNumber, accountName: body.accountName };
    case 'external':
      return {
        toAccountNumber: body.toAccountNumber,
        accountName: body.accountName,
        routeNumber: body.routeNumber,
        nameOfBank: body.nameOfBank,
        nameOfCountry: body.nameOfCountry,
      };
    case 'card':
      return {};
  }
}

export function presentSchedule(schedule: ScheduleRow, pending: readonly OccurrenceRow[], day: BankDay): ScheduledPayment {
  return {
    id: schedule.id,
    status: schedule.status,
    frequency: schedule.frequency,
    dayOfMonth: schedule.last_business_day ? 'last' : schedule.day_of_month,
    startDate: schedule.start_date,
    endDate: schedule.end_date,
    count: schedule.count,
    payment: {
      kind: schedule.kind,
      fromAccountId: schedule.from_account_id,
      amountCents: centsToJson(schedule.amount_cents),
      message: schedule.payment.message,
      ...recipientOf(schedule.payment),
    },
    description: schedule.description,
    next: nextDatesOf(schedule, pending),
    upcoming: aheadOf(schedule, pending, day).map(({ retry: _retry, ...occurrence }) => occurrence),
    createdAt: schedule.created_at.toISOString(),
  };
}

/** The schedule's occurrences: those written (paid, skipped, failed, cancelled, being paid), then those of the next 90 days, by date. */
export function presentOccurrences(schedule: ScheduleRow, written: readonly OccurrenceRow[], pending: readonly OccurrenceRow[], day: BankDay): Occurrence[] {
  const done: Occurrence[] = written
    .filter((row) => row.status !== 'scheduled')
    .map((row) => ({
      date: row.retry_date ?? row.date,
      status: row.status,
      ...(row.transfer_id ? { transferId: row.transfer_id } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
    }));
  const ahead: Occurrence[] = aheadOf(schedule, pending, day).map((occurrence) => ({ date: occurrence.date, status: 'scheduled' }));
  return [...done, ...ahead].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Every schedule's occurrences of the next 90 days, soonest first. */
export function presentUpcoming(schedules: ReadonlyArray<{ schedule: ScheduleRow; pending: readonly OccurrenceRow[] }>, day: BankDay): UpcomingPayment[] {
  const items = schedules.flatMap(({ schedule, pending }) =>
    aheadOf(schedule, pending, day).map((occurrence) => ({
      ...occurrence,
      scheduleId: schedule.id,
      kind: schedule.kind,
      amountCents: centsToJson(schedule.amount_cents),
      description: schedule.description,
    })),
  );
  return items.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.scheduleId < b.scheduleId ? -1 : 1));
}
