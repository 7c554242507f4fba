import type { BooksDaysResponse } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { sqlInstant, systemClock, type Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addDays, calendarDayIn, isCalendarDate } from '../../platform/business-calendar.ts';
import { glBalancesThrough } from './balances.ts';

/**
 * Closing business days (docs/books.md, "Closing a day"). Migration 0050 dates every ledger
 * transfer (posted_on) and refuses a date on or before books_state.closed_through; closing a day
 * moves closed_through forward and keeps the general ledger's balances through it, which never
 * change afterwards. End of day closes each business day it runs; `close-day` closes the rest.
 */

/**
 * The key of the lock a close takes exclusively and every ledger insert takes shared (the posted_on
 * trigger of migration 0050): a transfer commits before the close reads the ledger, or waits and
 * is then booked on the next open day. The two numbers must agree.
 */
export const booksCloseLockKey = 7735001;

/**
 * Writes the bank's time zone into books_state, which dates every ledger transfer (migration 0050).
 * Answers false when the database is away (a server may start while it is, and answers 503 until it
 * is back): the zone written last stays, and the next start writes it.
 */
export async function syncBooksTimeZone(db: Queryable, timeZone: string): Promise<boolean> {
  try {
    await db.query('UPDATE books_state SET time_zone = $1 WHERE time_zone IS DISTINCT FROM $1', [timeZone]);
    return true;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return false;
    throw error;
  }
}

export interface BooksState {
  /** The last closed business date, or null while nothing is closed. */
  closedThrough: string | null;
  /** The earliest day a posting may still be booked on. */
  openDay: string;
  timeZone: string;
}

async function readState(db: Queryable, lock: boolean): Promise<{ closedThrough: string | null; timeZone: string }> {
  const [row] = await db.query<{ closed_through: string | null; time_zone: string }>(
    `SELECT to_char(closed_through, 'YYYY-MM-DD') AS closed_through, time_zone FROM books_state${lock ? ' FOR UPDATE' : ''}`,
  );
  if (!row) throw new Error('books_state has no row (migration 0050 writes it)');
  return { closedThrough: row.closed_through, timeZone: row.time_zone };
}

/** The last closed business date, or null while nothing is closed: a day on or before it never changes. */
export async function closedThrough(db: Queryable): Promise<string | null> {
  return (await readState(db, false)).closedThrough;
}

/** The day after the last closed one or, while nothing is closed, the bank's date (platform/bank-date.ts). */
export async function booksState(db: Queryable, config: Pick<Config, 'bankTimeZone'>, clock?: Clock): Promise<BooksState> {
  const { closedThrough, timeZone } = await readState(db, false);
  const openDay = closedThrough === null ? await bankDate(db, config, clock) : addDays(closedThrough, 1);
  return { closedThrough, openDay, timeZone };
}

/** A production close asked for a day after the bank's today: nothing was closed. */
export class BooksCloseRefused extends Error {
  override readonly name = 'BooksCloseRefused';
}

export interface CloseOptions {
  /** Who closes, as the audit log records it: the end-of-day job ('system', the default) or an operator ('staff'). */
  actorType?: 'system' | 'staff';
  /** Given, production refuses a day after the bank's today; a sandbox may close ahead of the clock, as its end of day runs ahead. */
  config?: Pick<Config, 'mode' | 'bankTimeZone'>;
}

/**
 * Closes every day up to `day` not closed yet, as one close recorded on `day`: in one transaction
 * holding the books' lock exclusively, it keeps the general ledger's cumulative balances through
 * `day` (books_day_balances), records the close (books_closed_days, debits = credits), moves
 * books_state.closed_through to `day` and audits it. A day closed already returns { closed: [] },
 * so end of day may close again after a crash. Reports of a day between two closes read the
 * earlier close's balances and the ledger rows after it, which can no longer change either.
 */
export async function closeBooksThrough(db: Database, day: string, closedBy: string, clock?: Clock, options: CloseOptions = {}): Promise<{ closed: string[] }> {
  if (!isCalendarDate(day)) throw new RangeError(`not a date (YYYY-MM-DD): ${day}`);
  if (options.config?.mode === 'production') {
    const today = calendarDayIn(options.config.bankTimeZone, (clock ?? systemClock).now());
    if (day > today) throw new BooksCloseRefused(`The books cannot be closed through ${day}: it is after the bank's today (${today}).`);
  }
  return retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      // Taken first: once it is held, no transfer is being booked, and each statement after it reads every booked one.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [booksCloseLockKey]);
      const { closedThrough } = await readState(tx, true);
      if (closedThrough !== null && closedThrough >= day) return { closed: [] };
      const balances = [...(await glBalancesThrough(tx, day)).values()];
      const debits = balances.reduce((sum, balance) => sum + balance.debits, 0n);
      const credits = balances.reduce((sum, balance) => sum + balance.credits, 0n);
      // Every transfer debits one account and credits another, both in the chart: unequal totals are a broken ledger.
      if (debits !== credits) throw new Error(`the general ledger through ${day} does not balance: debits ${debits}, credits ${credits}`);
      const at = sqlInstant(clock);
      await tx.query(
        `INSERT INTO books_day_balances (day, gl_account, debits_cents, credits_cents)
         SELECT $1::date, account, debits, credits FROM unnest($2::text[], $3::numeric[], $4::numeric[]) AS kept (account, debits, credits)`,
        [
          day,
          balances.map((balance) => balance.gl.account),
          balances.map((balance) => balance.debits.toString()),
          balances.map((balance) => balance.credits.toString()),
        ],
      );
      await tx.query(
        `INSERT INTO books_closed_days (day, closed_at, closed_by, debits_cents, credits_cents) VALUES ($1::date, coalesce($2::timestamptz, now()), $3, $4, $4)`,
        [day, at, closedBy, debits.toString()],
      );
      await tx.query('UPDATE books_state SET closed_through = $1::date, closed_at = coalesce($2::timestamptz, now())', [day, at]);
      await recordAudit(tx, {
        actorType: options.actorType ?? 'system',
        actorId: closedBy,
        action: 'books.day_closed',
        subject: day,
        outcome: 'success',
        details: { previouslyClosedThrough: closedThrough, debitsCents: Number(debits), creditsCents: Number(credits) },
      });
      return { closed: [day] };
    }),
  );
}

/** Whether a database error is the posted_on trigger's refusal of a closed day (SQLSTATE SR035), from either driver. */
export function isBusinessDayClosedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'SR035';
}

/** How many closed days `GET /staff/books/days` lists, newest first: a year of business days and more. */
export const closedDaysListed = 400;

/** `GET /staff/books/days`: the last closed day, the open day and the latest closes. */
export async function booksDays(db: Queryable, config: Pick<Config, 'bankTimeZone'>, clock?: Clock): Promise<BooksDaysResponse> {
  const state = await booksState(db, config, clock);
  const rows = await db.query<{ day: string; closed_at: Date; closed_by: string; debits_cents: string; credits_cents: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, closed_at, closed_by, debits_cents::text, credits_cents::text FROM books_closed_days ORDER BY day DESC LIMIT $1`,
    [closedDaysListed],
  );
  return {
    closedThrough: state.closedThrough,
    openDay: state.openDay,
    days: rows.map((row) => ({
      day: row.day,
      closedAt: row.closed_at.toISOString(),
      closedBy: row.closed_by,
      debitsCents: Number(row.debits_cents),
      creditsCents: Number(row.credits_cents),
    })),
  };
}
