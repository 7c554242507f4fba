import { allForYear } from '@18f/us-federal-holidays';

/**
 * The bank's business days (docs/decisions/071-business-calendar.md): Monday to Friday, except the
 * Federal Reserve's holidays, computed for any year rather than listed by hand. The Federal Reserve
 * observes a holiday that falls on a Sunday on the Monday after, and one that falls on a Saturday not
 * at all (its banks open the Friday before), unlike the federal government, which closes that
 * Friday. Dates are calendar days in the bank's time zone, as YYYY-MM-DD.
 */
const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 24 * 3_600_000;

const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** The Federal Reserve's holidays of `year`, as observed (YYYY-MM-DD). */
export function federalReserveHolidays(year: number): ReadonlySet<string> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Set(allForYear(year, { shiftSaturdayHolidays: false, shiftSundayHolidays: true }).map((holiday) => holiday.dateString));
    holidaysByYear.set(year, holidays);
  }
  return holidays;
}

function partsOf(date: string): { year: number; utcMs: number } {
  const match = isoDate.exec(date);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utcMs = Date.UTC(year, month - 1, day);
  if (new Date(utcMs).toISOString().slice(0, 10) !== date) throw new RangeError(`no such day: ${date}`);
  return { year, utcMs };
}

/** The calendar day `days` after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(partsOf(date).utcMs + days * dayMs).toISOString().slice(0, 10);
}

export function isBusinessDay(date: string): boolean {
  const { year, utcMs } = partsOf(date);
  const weekday = new Date(utcMs).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !federalReserveHolidays(year).has(date);
}

/** The first business day after `date`. */
export function nextBusinessDay(date: string): string {
  let day = addDays(date, 1);
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** The last business day before `date`. */
export function previousBusinessDay(date: string): string {
  let day = addDays(date, -1);
  while (!isBusinessDay(day)) day = addDays(day, -1);
  return day;
}

/**
 * The n-th business day after `day` (n >= 1): `day` itself is never counted, so day 1 is the first
 * business day after it, whether or not `day` is a business day (issue 34, Regulation E's clocks).
 */
export function addBusinessDays(day: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`not a count of business days (an integer >= 1): ${n}`);
  let result = day;
  for (let counted = 0; counted < n; counted += 1) result = nextBusinessDay(result);
  return result;
}

/** One formatter per time zone: making one costs far more than using it (issue 37's profile). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function calendarDayIn(timeZone: string, at: Date): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/*
 * The ACH cut-off (ACH_CUTOFF, bank time; issue 33, docs/bill-pay.md): a payment dated today leaves
 * in today's NACHA file when made before it on a business day; after it, or on a day that is not a
 * business day, the first date it can have is the next business day.
 */
const cutoffPattern = /^([01]\d|2[0-3]):([0-5]\d)$/;
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in milliseconds (what its wall clock reads, as if UTC, minus the instant). */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1_000) * 1_000;
}

/**
 * The instant the cut-off of `day` passes: `achCutoff` (HH:MM) on that day in `timeZone`, with the
 * offset in force then (so 17:00 is 17:00 on the days clocks change too). A time a change of clocks
 * skips is read with the offset before the change (02:30 on a spring-forward day is 03:30); a time
 * it repeats is its first occurrence.
 */
export function cutoffInstant(day: string, achCutoff: string, timeZone: string): Date {
  const match = cutoffPattern.exec(achCutoff);
  if (!match) throw new RangeError(`not a cut-off time (HH:MM): ${achCutoff}`);
  const wall = partsOf(day).utcMs + (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  const before = wall - zoneOffsetMs(timeZone, wall - dayMs);
  const after = wall - zoneOffsetMs(timeZone, wall + dayMs);
  const reads = (instant: number) => instant + zoneOffsetMs(timeZone, instant) === wall;
  const candidates = [before, after].filter(reads).sort((first, second) => first - second);
  return new Date(candidates[0] ?? before);
}

/** Whether the cut-off of `today` (the bank's date) has passed at `now`; never on a day that is not a business day (nothing leaves then). */
export function isPastCutoff(now: Date, today: string, achCutoff: string, timeZone: string): boolean {
  return isBusinessDay(today) && now.getTime() >= cutoffInstant(today, achCutoff, timeZone).getTime();
}

/**
 * The first date a payment made at `now` can be dated: `today` (the bank's date) when it is a
 * business day and its cut-off has not passed, else the next business day. In a sandbox run ahead
 * of the clock `today` is after the clock's date, so its cut-off is still to come.
 */
export function earliestPaymentDate(now: Date, today: string, achCutoff: string, timeZone: string): string {
  return isBusinessDay(today) && !isPastCutoff(now, today, achCutoff, timeZone) ? today : nextBusinessDay(today);
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
