import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import type { LiveEvents } from '../../platform/live-events.ts';

/** What the reconciliation is given (the books' dependencies, the same shape: app.ts hands both one object). */
export interface ReconciliationDependencies {
  db: Database;
  config: Config;
  /** The app's clock (tests); production: the machine's and the database's. */
  clock?: Clock;
  liveEvents?: LiveEvents;
}
