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

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function calendarDayIn(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
