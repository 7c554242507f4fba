import type { Config } from '../../config.ts';
import { sqlInstant, systemClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { addDays, calendarDayIn, isBusinessDay, isCalendarDate, nextBusinessDay } from '../../platform/business-calendar.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { TermsRow } from '../products/service.ts';
import { accrueDay } from './accrual.ts';
import { allProductTerms } from './repository.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';
import { closeAccountCycle, monthStartOf } from './cycle-close.ts';
import { withEndOfDayLock } from './run-lock.ts';
import { closeBooksThrough } from '../books/service.ts';

export interface EndOfDayDependencies {
  db: Database;
  config: Pick<Config, 'bankTimeZone' | 'mode' | 'bankName'>;
  /** The time the run goes by (tests); production: the machine's for today, the database's now() for what it writes. */
  clock?: Clock;
  /** Tells open pages of the customers whose accounts a cycle close changed. */
  liveEvents?: LiveEvents;
  /**
   * Runs first in each business day run (app.ts and the ops command give it): the scheduled
   * payments due up to that day are paid before its accrual (issue 33). It may be run again.
   */
  beforeDay?: (day: string) => Promise<void>;
  /**
   * Runs after each business day this run finished (issue 35): the sandbox's settlement bank writes
   * that day's BAI2 statement and the reconciliation imports it. A crash before it ran skips it.
   */
  afterDay?: (day: string) => Promise<void>;
}

export interface EndOfDayResult {
  /** The business days this run ran (or finished), in order. */
  days: string[];
  interestPostedCents: bigint;
  feesChargedCents: bigint;
}

/** Production asked to run a day after the bank's today. */
export class EndOfDayRefused extends Error {
  override readonly name = 'EndOfDayRefused';
}

export { isCalendarDate };

/** The last business day before `day`: what the recurring job runs through. */
export function lastBusinessDayBefore(day: string): string {
  let before = addDays(day, -1);
  while (!isBusinessDay(before)) before = addDays(before, -1);
  return before;
}

function isLastDayOfMonth(day: string): boolean {
  return addDays(day, 1).slice(0, 7) !== day.slice(0, 7);
}

export interface PlannedDay {
  day: string;
  coversFrom: string;
}

/**
 * The business days to run up to `through`, in order: a day left running by a crash first, then
 * every business day after the last one run, each covering the calendar days after its
 * predecessor. The first run ever starts at the first business day on or after the bank's date of
 * the earliest account opening, and covers from that date.
 */
export async function plannedDays(deps: Pick<EndOfDayDependencies, 'db' | 'config'>, through: string): Promise<PlannedDay[]> {
  const { db, config } = deps;
  const planned: PlannedDay[] = [];
  const [last] = await db.query<{ day: string; covers_from: string; status: string }>(
    'SELECT day::text AS day, covers_from::text AS covers_from, status FROM business_days ORDER BY day DESC LIMIT 1',
  );
  let next: string;
  let coversFrom: string;
  if (last) {
    if (last.status === 'running' && last.day <= through) planned.push({ day: last.day, coversFrom: last.covers_from });
    next = nextBusinessDay(last.day);
    coversFrom = addDays(last.day, 1);
  } else {
    const [earliest] = await db.query<{ opened_at: Date | null }>('SELECT min(opened_at) AS opened_at FROM customer_accounts');
    if (!earliest?.opened_at) return [];
    coversFrom = calendarDayIn(config.bankTimeZone, earliest.opened_at);
    next = isBusinessDay(coversFrom) ? coversFrom : nextBusinessDay(coversFrom);
  }
  while (next <= through) {
    planned.push({ day: next, coversFrom });
    coversFrom = addDays(next, 1);
    next = nextBusinessDay(next);
  }
  return planned;
}

/**
 * Where a close's postings are dated: in a sandbox whose run is ahead of the clock (the time
 * machine), at the last millisecond of the day closed, so its interest and fee read on their day
 * in history and statements; otherwise the run's clock (production: the database's now()).
 */
export function postingClock(deps: Pick<EndOfDayDependencies, 'config' | 'clock'>, day: string): Clock | undefined {
  const endOfDay = new Date(startOfDayIn(deps.config.bankTimeZone, addDays(day, 1)).getTime() - 1);
  if (deps.config.mode === 'sandbox' && endOfDay.getTime() > (deps.clock ?? systemClock).now().getTime()) return { now: () => endOfDay };
  return deps.clock;
}

/** Records the business day as running (once); false when it is done already. */
export async function beginBusinessDay(deps: Pick<EndOfDayDependencies, 'db' | 'clock'>, planned: PlannedDay): Promise<boolean> {
  await deps.db.query(
    `INSERT INTO business_days (day, covers_from, status, started_at) VALUES ($1::date, $2::date, 'running', coalesce($3::timestamptz, now()))
     ON CONFLICT (day) DO NOTHING`,
    [planned.day, planned.coversFrom, sqlInstant(deps.clock)],
  );
  const [row] = await deps.db.query<{ status: string }>('SELECT status FROM business_days WHERE day = $1::date', [planned.day]);
  return row?.status === 'running';
}

/** Every account with an accrual in the cycle ending `day` and no statement for it yet, in id order, each looked up by its own keys. */
async function accountsToClose(deps: Pick<EndOfDayDependencies, 'db'>, day: string): Promise<string[]> {
  const rows = await deps.db.query<{ id: string }>(
    `SELECT a.id FROM customer_accounts a
      WHERE EXISTS (SELECT 1 FROM interest_accruals i WHERE i.account_id = a.id AND i.day BETWEEN $1::date AND $2::date)
        AND NOT EXISTS (SELECT 1 FROM monthly_statements s WHERE s.account_id = a.id AND s.period_end = $2::date)
      ORDER BY a.id`,
    [monthStartOf(day), day],
  );
  return rows.map((row) => row.id);
}

/** Closes the cycle ending `day` for every account, each in its own transaction. */
export async function closeCycles(deps: EndOfDayDependencies, terms: readonly TermsRow[], day: string): Promise<void> {
  const context = { timeZone: deps.config.bankTimeZone, bankName: deps.config.bankName, terms, clock: postingClock(deps, day) };
  for (const accountId of await accountsToClose(deps, day)) {
    const closed = await retryOnWriteConflict(() => deps.db.transaction((tx) => closeAccountCycle(tx, context, accountId, day)));
    if (closed) {
      deps.liveEvents?.publish(closed.customerId, 'accounts');
      deps.liveEvents?.publish(closed.customerId, 'notifications');
    }
  }
}

/** The interest and fees the cycle closes of these calendar days posted, read back by their ids (exact whatever crashes came between). */
async function postedTotals(deps: Pick<EndOfDayDependencies, 'db'>, planned: PlannedDay): Promise<{ interest: bigint; fees: bigint }> {
  const ids: string[] = [];
  for (let day = planned.coversFrom; day <= planned.day; day = addDays(day, 1)) {
    if (!isLastDayOfMonth(day)) continue;
    const closed = await deps.db.query<{ account_id: string }>('SELECT account_id FROM monthly_statements WHERE period_end = $1::date', [day]);
    for (const { account_id } of closed) ids.push(derivedUuid('interest', account_id, day), derivedUuid('fee', account_id, day));
  }
  if (ids.length === 0) return { interest: 0n, fees: 0n };
  const [row] = await deps.db.query<{ interest: string; fees: string }>(
    `SELECT coalesce(sum(amount_cents) FILTER (WHERE kind = 'interest'), 0)::text AS interest,
            coalesce(sum(amount_cents) FILTER (WHERE kind = 'fee'), 0)::text AS fees
       FROM payments WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return { interest: BigInt(row?.interest ?? '0'), fees: BigInt(row?.fees ?? '0') };
}

/**
 * Runs one business day: accrues each calendar day it covers, closing the month's cycle on a
 * month's last day, then records it done with what it posted. Every step may be run again.
 */
async function runBusinessDay(deps: EndOfDayDependencies, terms: readonly TermsRow[], planned: PlannedDay): Promise<{ interest: bigint; fees: bigint } | null> {
  if (!(await beginBusinessDay(deps, planned))) return null;
  await deps.beforeDay?.(planned.day);
  for (let day = planned.coversFrom; day <= planned.day; day = addDays(day, 1)) {
    await accrueDay(deps.db, deps.config.bankTimeZone, terms, day);
    if (isLastDayOfMonth(day)) await closeCycles(deps, terms, day);
  }
  const totals = await postedTotals(deps, planned);
  // The day's postings are all booked: close its books (docs/books.md, "Closing a day"). A close is
  // idempotent, so a crash between it and the UPDATE below only closes it again, as nothing.
  await closeBooksThrough(deps.db, planned.day, 'end-of-day', deps.clock, { actorType: 'system', config: deps.config });
  await deps.db.query(
    `UPDATE business_days SET status = 'done', finished_at = coalesce($2::timestamptz, now()), interest_posted_cents = $3, fees_charged_cents = $4
      WHERE day = $1::date AND status = 'running'`,
    [planned.day, sqlInstant(deps.clock), totals.interest.toString(), totals.fees.toString()],
  );
  return totals;
}

/**
 * The end-of-day job (docs/deposit-products.md): every business day not yet run up to `through`,
 * in order, each exactly once, one run at a time across processes (run-lock.ts). Production
 * refuses a day after the bank's today; a sandbox runs ahead of the clock (the time machine).
 */
export async function runEndOfDay(deps: EndOfDayDependencies, through: string): Promise<EndOfDayResult> {
  if (!isCalendarDate(through)) throw new RangeError(`not a date (YYYY-MM-DD): ${through}`);
  const today = calendarDayIn(deps.config.bankTimeZone, (deps.clock ?? systemClock).now());
  if (deps.config.mode === 'production' && through > today) {
    throw new EndOfDayRefused(
      `End of day cannot run through ${through}: it is after the bank's today (${today}), and production never runs ahead of the clock.`,
    );
  }
  return withEndOfDayLock(deps.db, async () => {
    const result: EndOfDayResult = { days: [], interestPostedCents: 0n, feesChargedCents: 0n };
    const planned = await plannedDays(deps, through);
    if (planned.length === 0) return result;
    const terms = await allProductTerms(deps.db);
    for (const day of planned) {
      const totals = await runBusinessDay(deps, terms, day);
      if (!totals) continue;
      await deps.afterDay?.(day.day);
      result.days.push(day.day);
      result.interestPostedCents += totals.interest;
      result.feesChargedCents += totals.fees;
    }
    return result;
  });
}
