import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import type { LiveEvents } from '../../platform/live-events.ts';

/** What the books (issue 35: reports, closed days, adjusting entries) and the reconciliation are given. */
export interface BooksDependencies {
  db: Database;
  config: Config;
  /** The app's clock (tests); production: the machine's and the database's. */
  clock?: Clock;
  liveEvents?: LiveEvents;
}
