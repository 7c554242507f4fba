import type { Database } from '../../db/database.ts';
import { createLiveEvents } from '../../platform/live-events.ts';
import { OpsUsageError, ok, type OpsCommand, type OpsContext } from '../../platform/ops-command.ts';
import { EndOfDayRefused, isCalendarDate, runEndOfDay } from './run.ts';

/** What runs first in each business day (the registry gives the scheduled payments' run). */
export type BeforeDayOf = (context: OpsContext, db: Database) => (day: string) => Promise<void>;

/** `npm run ops -- end-of-day --through YYYY-MM-DD`: every business day not yet run up to that date, in order. */
export const endOfDayCommand: OpsCommand = endOfDayCommandWith();

/** The end-of-day command, with what runs first in each business day it runs. */
export function endOfDayCommandWith(beforeDayOf?: BeforeDayOf): OpsCommand {
  return {
    name: 'end-of-day',
    summary: 'Run end of day (interest accrual; at a month end interest, fees and statements) for every business day not yet run up to a date',
    usage: 'end-of-day --through YYYY-MM-DD',
    async run(context, args) {
      const { database, config, liveEvents } = context;
      if (args.length !== 2 || args[0] !== '--through') throw new OpsUsageError('end-of-day takes --through YYYY-MM-DD');
      const through = args[1] ?? '';
      if (!isCalendarDate(through)) throw new OpsUsageError(`not a date: ${through}`);
      const db = await database();
      try {
        const beforeDay = beforeDayOf?.(context, db);
        const result = await runEndOfDay({ db, config, liveEvents: liveEvents ?? createLiveEvents(db), ...(beforeDay ? { beforeDay } : {}) }, through);
        return ok({ days: result.days, interestPostedCents: Number(result.interestPostedCents), feesChargedCents: Number(result.feesChargedCents) });
      } catch (error) {
        if (error instanceof EndOfDayRefused) return { exitCode: 1, output: error.message };
        throw error;
      }
    },
  };
}
