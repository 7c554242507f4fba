import { createLiveEvents } from '../../platform/live-events.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { EndOfDayRefused, isCalendarDate, runEndOfDay } from './run.ts';

/** `npm run ops -- end-of-day --through YYYY-MM-DD`: every business day not yet run up to that date, in order. */
export const endOfDayCommand: OpsCommand = {
  name: 'end-of-day',
  summary: 'Run end of day (interest accrual; at a month end interest, fees and statements) for every business day not yet run up to a date',
  usage: 'end-of-day --through YYYY-MM-DD',
  async run({ database, config, liveEvents }, args) {
    if (args.length !== 2 || args[0] !== '--through') throw new OpsUsageError('end-of-day takes --through YYYY-MM-DD');
    const through = args[1] ?? '';
    if (!isCalendarDate(through)) throw new OpsUsageError(`not a date: ${through}`);
    const db = await database();
    try {
      const result = await runEndOfDay({ db, config, liveEvents: liveEvents ?? createLiveEvents(db) }, through);
      return ok({ days: result.days, interestPostedCents: Number(result.interestPostedCents), feesChargedCents: Number(result.feesChargedCents) });
    } catch (error) {
      if (error instanceof EndOfDayRefused) return { exitCode: 1, output: error.message };
      throw error;
    }
  },
};
