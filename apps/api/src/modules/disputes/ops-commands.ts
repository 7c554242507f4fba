import type { Database } from '../../db/database.ts';
import type { OpsContext } from '../../platform/ops-command.ts';
import { storageFor } from '../../platform/storage.ts';
import { disputesBeforeDay } from './jobs.ts';

/**
 * `npm run ops -- end-of-day --through D` meets the disputes' dates of each business day it runs
 * (the provisional credit due by then, a denial's reversal due then), after `first` (the scheduled
 * payments', composed by the registry), as the server's own end of day does (app.ts).
 */
export function disputesBeforeDayOf(context: OpsContext, db: Database, first?: (day: string) => Promise<void>): (day: string) => Promise<void> {
  const dependencies = { db, config: context.config, storage: storageFor(context.config), ...(context.liveEvents ? { liveEvents: context.liveEvents } : {}) };
  return disputesBeforeDay(dependencies, first);
}
