import { parseArgs } from 'node:util';
import type { Database } from '../../db/database.ts';
import { createLiveEvents } from '../../platform/live-events.ts';
import { OpsUsageError, ok, type OpsCommand, type OpsContext } from '../../platform/ops-command.ts';
import { BooksCloseRefused, closeBooksThrough, closedThrough } from '../books/service.ts';
import { EndOfDayRefused, isCalendarDate, runEndOfDay, type EndOfDayDependencies } from './run.ts';

/** What runs first in each business day (the registry gives the scheduled payments' run). */
export type BeforeDayOf = (context: OpsContext, db: Database) => (day: string) => Promise<void>;
/** What runs after each business day, if anything (the registry gives the sandbox settlement bank's statement, issue 35). */
export type AfterDayOf = (context: OpsContext, db: Database) => ((day: string) => Promise<void>) | undefined;

/** What each business day runs before and after it, the same from every command that runs end of day (end-of-day, close-day). */
export interface EndOfDayHooksOf {
  beforeDayOf?: BeforeDayOf;
  afterDayOf?: AfterDayOf;
}

/** The end-of-day run's dependencies inside an ops command. */
export function endOfDayDependenciesOf(context: OpsContext, db: Database, hooks: EndOfDayHooksOf = {}): EndOfDayDependencies {
  const beforeDay = hooks.beforeDayOf?.(context, db);
  const afterDay = hooks.afterDayOf?.(context, db);
  return {
    db,
    config: context.config,
    liveEvents: context.liveEvents ?? createLiveEvents(db),
    ...(beforeDay ? { beforeDay } : {}),
    ...(afterDay ? { afterDay } : {}),
  };
}

/** `npm run ops -- end-of-day --through YYYY-MM-DD`: every business day not yet run up to that date, in order. */
export const endOfDayCommand: OpsCommand = endOfDayCommandWith();

/** The end-of-day command, with what runs first in each business day it runs (and, given, after it). */
export function endOfDayCommandWith(beforeDayOf?: BeforeDayOf, afterDayOf?: AfterDayOf): OpsCommand {
  return {
    name: 'end-of-day',
    summary: 'Run end of day (interest accrual; at a month end interest, fees and statements) for every business day not yet run up to a date',
    usage: 'end-of-day --through YYYY-MM-DD',
    async run(context, args) {
      if (args.length !== 2 || args[0] !== '--through') throw new OpsUsageError('end-of-day takes --through YYYY-MM-DD');
      const through = args[1] ?? '';
      if (!isCalendarDate(through)) throw new OpsUsageError(`not a date: ${through}`);
      const db = await context.database();
      try {
        const result = await runEndOfDay(
          endOfDayDependenciesOf(context, db, { ...(beforeDayOf ? { beforeDayOf } : {}), ...(afterDayOf ? { afterDayOf } : {}) }),
          through,
        );
        return ok({ days: result.days, interestPostedCents: Number(result.interestPostedCents), feesChargedCents: Number(result.feesChargedCents) });
      } catch (error) {
        if (error instanceof EndOfDayRefused) return { exitCode: 1, output: error.message };
        throw error;
      }
    },
  };
}

/** Who the audit log names for a close from the ops CLI (as the other ops commands that change things do). */
const opsActorId = 'ops-cli';

/**
 * `npm run ops -- close-day --through D` (docs/books.md, "Closing a day"): runs end of day through
 * D, which closes each business day it runs, then closes the books through D itself, which takes
 * the days end of day ran before the books existed (or a weekend after the last business day).
 * Production refuses a day after the bank's today; a sandbox may close ahead, as its end of day
 * runs ahead. `hooks`: what each business day runs before and after it, as the end-of-day command.
 */
export function closeDayCommandWith(hooks: EndOfDayHooksOf = {}): OpsCommand {
  return {
    name: 'close-day',
    summary: "Close the bank's books through a date: run end of day through it, then close every day not closed yet",
    usage: 'close-day --through YYYY-MM-DD',
    async run(context, args) {
      const { values, positionals } = parseArgs({ args, options: { through: { type: 'string' } }, allowPositionals: true, strict: true });
      const through = values.through;
      if (through === undefined || positionals.length > 0) throw new OpsUsageError('close-day takes --through YYYY-MM-DD');
      if (!isCalendarDate(through)) throw new OpsUsageError(`not a date: ${through}`);
      const db = await context.database();
      const before = await closedThrough(db);
      try {
        const endOfDay = await runEndOfDay(endOfDayDependenciesOf(context, db, hooks), through);
        await closeBooksThrough(db, through, opsActorId, undefined, { actorType: 'staff', config: context.config });
        // Every day closed by this command, by end of day or by the close after it, read back from the books.
        const closed = await db.query<{ day: string }>(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM books_closed_days WHERE ($1::date IS NULL OR day > $1::date) AND day <= $2::date ORDER BY day`,
          [before, through],
        );
        const after = await closedThrough(db);
        return ok({ closedThrough: after, closed: closed.map((row) => row.day), endOfDay: { days: endOfDay.days } });
      } catch (error) {
        if (error instanceof EndOfDayRefused || error instanceof BooksCloseRefused) return { exitCode: 1, output: error.message };
        throw error;
      }
    },
  };
}
