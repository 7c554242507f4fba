import { systemClock } from '../../db/clock.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { lastBusinessDayBefore, runEndOfDay, type EndOfDayDependencies } from './run.ts';

export const endOfDayJobKind = 'end-of-day.run';
/**
 * Enqueued every hour, so a server started at any time, or back after downtime, catches up on the
 * business days it missed, day by day; a day already run is not run again (run.ts).
 */
export const endOfDayIntervalMs = 60 * 60 * 1_000;

/** The recurring end of day: every business day up to the last one before the bank's today. */
export function registerEndOfDayJobs(jobs: JobRunner, dependencies: EndOfDayDependencies): void {
  jobs.register(endOfDayJobKind, async () => {
    const today = await bankDate(dependencies.db, dependencies.config, dependencies.clock ?? systemClock);
    await runEndOfDay(dependencies, lastBusinessDayBefore(today));
  });
  jobs.every(endOfDayJobKind, endOfDayIntervalMs);
}
