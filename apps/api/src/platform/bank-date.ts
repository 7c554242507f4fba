import type { Config } from '../config.ts';
import { systemClock, type Clock } from '../db/clock.ts';
import { sharedReadPerDatabase } from '../db/batched-lookup.ts';
import type { Queryable } from '../db/database.ts';
import { calendarDayIn, zoneOffsetMs } from './business-calendar.ts';

/** Read once for every request asking at the same moment (db/batched-lookup.ts). */
const lastDayRun = sharedReadPerDatabase((db) => db.query<{ day: string | null }>(`SELECT max(day)::text AS day FROM business_days WHERE status = 'done'`));

/**
 * The bank's date (docs/deposit-products.md, "The business day"): today in the bank's time zone;
 * in a sandbox whose end-of-day job was run ahead of the clock (`end-of-day --through` a future
 * date, the demo's time machine), the last day it ran. Production never runs ahead, so there it is
 * always today. Effective dates of product changes and the catalogue's terms are read against it.
 */
export async function bankDate(db: Queryable, config: Pick<Config, 'bankTimeZone'>, clock: Clock = systemClock): Promise<string> {
  const [row] = await lastDayRun(db);
  return bankDateAfter(row?.day ?? null, config, clock);
}

/** `bankDate` for a caller that read the last business day run (YYYY-MM-DD, null before the first) itself. */
export function bankDateAfter(lastRun: string | null, config: Pick<Config, 'bankTimeZone'>, clock: Clock = systemClock): string {
  const today = calendarDayIn(config.bankTimeZone, clock.now());
  return lastRun !== null && lastRun > today ? lastRun : today;
}

/**
 * The instant a calendar day (YYYY-MM-DD) begins in `timeZone`: its midnight, or the first instant
 * after it when a change of clocks skips midnight. A day's end-of-day balance is the balance at the
 * start of the next day.
 */
export function startOfDayIn(timeZone: string, day: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${day}`);
  const wallMidnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  let instant = wallMidnight - zoneOffsetMs(timeZone, wallMidnight);
  instant = wallMidnight - zoneOffsetMs(timeZone, instant);
  return new Date(instant);
}
