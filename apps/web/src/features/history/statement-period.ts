const dayMs = 24 * 60 * 60 * 1_000;

export interface StatementPeriod {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** YYYY-MM-DD of a date on the customer's own calendar. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}

/** YYYY-MM of a date on the customer's own calendar. */
export function isoMonth(date: Date): string {
  return isoDay(date).slice(0, 7);
}

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The months the server offers (YYYY-MM), named in the same order: `{ value: '2026-03', label: 'March 2026' }`. */
export function monthChoices(months: readonly string[]): { value: string; label: string }[] {
  return months.map((month) => {
    const [year = 0, monthNumber = 0] = month.split('-').map(Number);
    return { value: month, label: monthFormat.format(new Date(Date.UTC(year, monthNumber - 1, 1))) };
  });
}

/** A whole month, except this one, which ends today: a statement covers what has happened. */
export function monthPeriod(month: string, today: Date): StatementPeriod {
  const [year, monthNumber] = month.split('-').map(Number);
  if (year === undefined || monthNumber === undefined || !(monthNumber >= 1 && monthNumber <= 12)) throw new RangeError(`not a month: ${month}`);
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  const monthEnd = `${month}-${twoDigits(lastDay)}`;
  const todayIso = isoDay(today);
  return { from: `${month}-01`, to: monthEnd < todayIso ? monthEnd : todayIso };
}

/** Days from `from` to `to`, both counted; calendar dates, so UTC midnights and no daylight-saving hour. */
export function daysInPeriod(period: StatementPeriod): number {
  return Math.round((Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / dayMs) + 1;
}
