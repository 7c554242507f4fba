import type { DayOfMonth, ScheduleFrequency } from '@strongroom/contracts/scheduled-payments.ts';

/**
 * Bank dates (YYYY-MM-DD, no time of day) as the scheduling screens word them. They are read and
 * written in UTC so that no visitor's time zone moves a payment to the day before.
 */
const dayFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const millisecondsPerDay = 86_400_000;

function utcDate(iso: string): Date {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  return date;
}

/** `Sat 14 Mar`, or `Sat 14 Mar 2026` with the year. */
export function formatDay(iso: string, { withYear = false }: { withYear?: boolean } = {}): string {
  const date = utcDate(iso);
  return withYear ? `${dayFormat.format(date)} ${date.getUTCFullYear()}` : dayFormat.format(date);
}

export function addDays(iso: string, days: number): string {
  return new Date(utcDate(iso).getTime() + days * millisecondsPerDay).toISOString().slice(0, 10);
}

function isoOf(year: number, monthIndex: number, day: number): string {
  return new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** The ACH cut-off `17:00` (bank time) as the customer reads it: `5:00 PM ET`. */
export function formatCutoff(cutoff: string): string {
  const [hours = 0, minutes = 0] = cutoff.split(':').map(Number);
  const suffix = hours >= 12 ? 'PM' : 'AM';
  const hour = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour}:${String(minutes).padStart(2, '0')} ${suffix} ET`;
}

export function cutoffNotice(cutoff: string): string {
  return `Payments made after ${formatCutoff(cutoff)} go the next business day.`;
}

/** `due Sat 14 Mar, paid Fri 13 Mar (the business day before)`, or null when the payment is made on its due date. */
export function movedWording(dueDate: string, date: string): string | null {
  return dueDate === date ? null : `due ${formatDay(dueDate)}, paid ${formatDay(date)} (the business day before)`;
}

/** `Nov has no 31st: due on its last day, Mon 30 Nov`, when a monthly day does not exist in the due date's month. */
export function shortMonthWording(dayOfMonth: DayOfMonth | null | undefined, dueDate: string): string | null {
  if (typeof dayOfMonth !== 'number') return null;
  const due = utcDate(dueDate);
  if (dayOfMonth <= daysInMonth(due.getUTCFullYear(), due.getUTCMonth())) return null;
  return `${monthFormat.format(due)} has no ${ordinal(dayOfMonth)}: due on its last day, ${formatDay(dueDate)}`;
}

function ordinal(day: number): string {
  const suffix = day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th';
  return `${day}${suffix}`;
}

export interface RecurrenceRule {
  frequency: ScheduleFrequency;
  startDate: string;
  dayOfMonth?: DayOfMonth | undefined;
  endDate?: string | undefined;
  count?: number | undefined;
}

/** A limit on the preview's work: it shows a few dates, never the whole series. */
export const previewLength = 6;

/**
 * The preview's due dates: the recurrence's own dates, before any move off a weekend or holiday.
 * A monthly "last" is the month's last calendar day here; `onBusinessDays` takes it to the last business day.
 */
export function dueDatesOf(rule: RecurrenceRule, limit: number = previewLength): string[] {
  const dates: string[] = [];
  const wanted = Math.min(limit, rule.count ?? limit);
  const start = utcDate(rule.startDate);
  for (let index = 0; dates.length < wanted && index < limit * 2; index += 1) {
    const due = nthDueDate(rule, start, index);
    if (due === null) break;
    if (due < rule.startDate) continue;
    if (rule.endDate !== undefined && due > rule.endDate) break;
    dates.push(due);
  }
  return dates;
}

function nthDueDate(rule: RecurrenceRule, start: Date, index: number): string | null {
  switch (rule.frequency) {
    case 'once':
      return index === 0 ? rule.startDate : null;
    case 'weekly':
      return addDays(rule.startDate, 7 * index);
    case 'biweekly':
      return addDays(rule.startDate, 14 * index);
    case 'monthly': {
      const year = start.getUTCFullYear();
      const monthIndex = start.getUTCMonth() + index;
      const lastDay = daysInMonth(year, monthIndex);
      const day = rule.dayOfMonth ?? start.getUTCDate();
      return isoOf(year, monthIndex, day === 'last' ? lastDay : Math.min(day, lastDay));
    }
  }
}

/** The business day a due date is paid on: itself, or the last business day before it. Null when the calendar does not reach back that far. */
export function paidOn(dueDate: string, businessDays: readonly string[]): string | null {
  let found: string | null = null;
  for (const day of businessDays) {
    if (day > dueDate) break;
    found = day;
  }
  return found;
}

/** own and internal arrive the day they are paid; ACH (external, bill) the next business day. */
export function arrivesByOf(date: string, kind: string, businessDays: readonly string[]): string | null {
  if (kind === 'own' || kind === 'internal') return date;
  return businessDays.find((day) => day > date) ?? null;
}
