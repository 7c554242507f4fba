import type { Database } from '../../db/database.ts';
import { withRunLock } from '../../platform/run-lock.ts';

/** The key of the scheduled-payments job's advisory lock (pg_advisory_xact_lock takes a bigint): "SCHED" in ASCII. */
export const scheduledPaymentsLockKey = 0x5343484544;

/** Runs `work` while no other run of the scheduled payments does, in any process (platform/run-lock.ts). */
export function withScheduledPaymentsLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  return withRunLock(db, scheduledPaymentsLockKey, work);
}
