import type { Database } from '../../db/database.ts';
import { withRunLock } from '../../platform/run-lock.ts';

/** The key of the end-of-day job's advisory lock (pg_advisory_xact_lock takes a bigint): "EOD" in ASCII. */
export const endOfDayLockKey = 0x454f44;

/** Runs `work` while no other end-of-day run does, in any process (platform/run-lock.ts). */
export function withEndOfDayLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  return withRunLock(db, endOfDayLockKey, work);
}
