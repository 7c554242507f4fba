import { addDays, isBusinessDay, nextBusinessDay, previousBusinessDay } from '../../platform/business-calendar.ts';

/**
 * The calendar of a scheduled payment (issue 33 item 3; docs/bill-pay.md): which dates a recurrence
 * names, the business day each is paid, the ACH cut-off and when the money arrives. Pure
 * arithmetic on the bank's business calendar (platform/business-calendar.ts); no database.
 *
 * A recurrence names due dates: `startDate`, then every 7 or 14 days (weekly, biweekly), or the same
 * day of every month (monthly: `dayOfMonth`, else the start date's day; a day the month lacks is its
 * last day, so a 31st is paid on the 30th in a 30-day month and on the 28th or 29th in February;
 * "last" names the month's last business day; the first is the first such day on or after the start
 * date). The series ends after its end date or its count. A due date that is not a business day is paid on the
 * business day before. Nothing is paid before the schedule's floor date (the earliest payment date
 * when it was made or last edited): an occurrence that would be goes on the first business day on
 * or after the floor, and one due before the floor's previous business day (in the past when the
 * schedule was made or edited) is not planned at all, though it still counts towards `count`.
 */

export type Frequency = 'once' | 'weekly' | 'biweekly' | 'monthly';
export interface Recurrence {
  startDate: string; // YYYY-MM-DD, the first due date
  frequency: Frequency;
  dayOfMonth: number | 'last' | null; // monthly only: 1-31, or 'last' (the month's last business day); null = the start date's day of month
  endDate: string | null; // no due date after it
  count: number | null; // at most this many occurrences
  /** No occurrence is dated before this business day (the earliest payment date when the schedule was made or last edited). */
  floorDate: string;
}
export interface PlannedOccurrence {
  index: number; // 0-based position in the series (count counts these)
  dueDate: string; // the date the recurrence names (a 31st in a 30-day month is the 30th; Feb 29/28; with 'last', the month's last business day)
  date: string; // the business day it is paid: dueDate if a business day, else the business day before; but never before floorDate (then the first business day on or after floorDate)
}

const dayMs = 24 * 3_600_000;
/** More than any run of non-business days a due date can be moved back over (a weekend and a holiday). */
const lookBackDays = 10;

function utcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function businessDayOnOrBefore(date: string): string {
  return isBusinessDay(date) ? date : previousBusinessDay(date);
}

function businessDayOnOrAfter(date: string): string {
  return isBusinessDay(date) ? date : nextBusinessDay(date);
}

/** The due date a monthly recurrence names in month `month` (0-based, may overflow into later years) of `year`. */
function monthlyDueDate(year: number, month: number, dayOfMonth: number | 'last'): string {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = dayOfMonth === 'last' ? lastDay : Math.min(dayOfMonth, lastDay);
  const date = new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);
  return dayOfMonth === 'last' ? businessDayOnOrBefore(date) : date;
}

interface MonthlyPlan {
  year: number;
  month: number;
  dayOfMonth: number | 'last';
}

/** The month of the first due date: the start date's, or the next when the named day of the start date's month is before it. */
function monthlyPlan(recurrence: Recurrence): MonthlyPlan {
  const { startDate } = recurrence;
  const year = Number(startDate.slice(0, 4));
  const month = Number(startDate.slice(5, 7)) - 1;
  const dayOfMonth = recurrence.dayOfMonth ?? Number(startDate.slice(8, 10));
  if (dayOfMonth !== 'last' && (!Number.isInteger(dayOfMonth) || dayOfMonth < 1 || dayOfMonth > 31)) {
    throw new RangeError(`a day of the month is 1 to 31 or "last", not ${dayOfMonth}`);
  }
  return { year, month: monthlyDueDate(year, month, dayOfMonth) < startDate ? month + 1 : month, dayOfMonth };
}

function dueDateAt(recurrence: Recurrence, index: number, plan: MonthlyPlan | null): string {
  switch (recurrence.frequency) {
    case 'once':
      return recurrence.startDate;
    case 'weekly':
      return addDays(recurrence.startDate, 7 * index);
    case 'biweekly':
      return addDays(recurrence.startDate, 14 * index);
    case 'monthly': {
      const { year, month, dayOfMonth } = plan ?? monthlyPlan(recurrence);
      return monthlyDueDate(year, month + index, dayOfMonth);
    }
    default:
      throw new RangeError(`not a frequency: ${String(recurrence.frequency)}`);
  }
}

/**
 * A series walked from one index on: each step is the next occurrence, `'dropped'` for one due
 * before the floor's previous business day, or null once the series has ended.
 */
class Series {
  private readonly plan: MonthlyPlan | null;
  private readonly floorBusinessDay: string;
  private readonly dropBefore: string;

  constructor(private readonly recurrence: Recurrence) {
    this.plan = recurrence.frequency === 'monthly' ? monthlyPlan(recurrence) : null;
    this.floorBusinessDay = businessDayOnOrAfter(recurrence.floorDate);
    this.dropBefore = previousBusinessDay(this.floorBusinessDay);
  }

  at(index: number): PlannedOccurrence | 'dropped' | null {
    const { recurrence } = this;
    if (recurrence.frequency === 'once' && index > 0) return null;
    if (recurrence.count !== null && index >= recurrence.count) return null;
    const dueDate = dueDateAt(recurrence, index, this.plan);
    if (recurrence.endDate !== null && dueDate > recurrence.endDate) return null;
    if (dueDate < this.dropBefore) return 'dropped';
    const date = businessDayOnOrBefore(dueDate);
    return { index, dueDate, date: date < this.floorBusinessDay ? this.floorBusinessDay : date };
  }

  /** An index at or before the first occurrence that can be dated on or after `from`: jumps, rather than walking from the start. */
  firstIndexFor(from: string): number {
    const { startDate, frequency } = this.recurrence;
    // Occurrences are paid at most a few days before they are due; those pulled up to the floor are due just before it.
    const lookFrom = addDays(from > this.dropBefore ? from : this.dropBefore, -lookBackDays);
    if (lookFrom <= startDate || frequency === 'once') return 0;
    if (frequency === 'weekly' || frequency === 'biweekly') {
      const step = frequency === 'weekly' ? 7 : 14;
      return Math.floor((utcMs(lookFrom) - utcMs(startDate)) / dayMs / step);
    }
    const months = (Number(lookFrom.slice(0, 4)) - Number(startDate.slice(0, 4))) * 12 + Number(lookFrom.slice(5, 7)) - Number(startDate.slice(5, 7));
    return Math.max(0, months - 2);
  }
}

/** The occurrences whose `date` is in [from, to], in order; never more than the series has. Jumps to `from`, so an "until cancelled" series years old is as quick as a new one. */
export function occurrencesBetween(recurrence: Recurrence, from: string, to: string): PlannedOccurrence[] {
  const series = new Series(recurrence);
  const found: PlannedOccurrence[] = [];
  for (let index = series.firstIndexFor(from); ; index += 1) {
    const occurrence = series.at(index);
    if (occurrence === null) break;
    if (occurrence === 'dropped') continue;
    if (occurrence.date > to) break;
    if (occurrence.date >= from) found.push(occurrence);
  }
  return found;
}

/** The first `n` occurrences whose date is on or after `from`. */
export function nextOccurrences(recurrence: Recurrence, from: string, n: number): PlannedOccurrence[] {
  const series = new Series(recurrence);
  const found: PlannedOccurrence[] = [];
  for (let index = series.firstIndexFor(from); found.length < n; index += 1) {
    const occurrence = series.at(index);
    if (occurrence === null) break;
    if (occurrence !== 'dropped' && occurrence.date >= from) found.push(occurrence);
  }
  return found;
}

/** Whether the series has no occurrence dated after `after` (a finished series). */
export function seriesEndsBy(recurrence: Recurrence, after: string): boolean {
  return nextOccurrences(recurrence, addDays(after, 1), 1).length === 0;
}

/** The ACH cut-off and the earliest payment date live with the business calendar (the calendar module answers them too). */
export { cutoffInstant, earliestPaymentDate, isPastCutoff } from '../../platform/business-calendar.ts';

/** When the money arrives: own and internal the same day; external and bill (ACH credits; the day's NACHA file is effective the next business day) the next business day. */
export function arrivesBy(kind: 'own' | 'internal' | 'external' | 'bill', date: string): string {
  return kind === 'own' || kind === 'internal' ? date : nextBusinessDay(date);
}
