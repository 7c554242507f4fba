import type { Database } from '../../db/database.ts';

/** The key of the scheduled-payments job's advisory lock (pg_advisory_xact_lock takes a bigint): "SCHED" in ASCII. */
export const scheduledPaymentsLockKey = 0x5343484544;

const runsInThisProcess = new WeakMap<Database, Promise<unknown>>();

/**
 * Runs `work` while no other run of the scheduled payments does, in any process, as end of day's
 * run-lock.ts does for its own runs: the runs of this process wait in turn, then on PostgreSQL a
 * transaction holds a transaction-level advisory lock on a connection of its own for the whole run
 * while the payments commit on others (a process that dies drops the lock with its connection);
 * PGlite belongs to one process, so there the turn within the process is the lock.
 */
export async function withScheduledPaymentsLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const locked =
    db.kind === 'postgres'
      ? () =>
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_advisory_xact_lock($1)', [scheduledPaymentsLockKey]);
            return work();
          })
      : work;
  const before = runsInThisProcess.get(db) ?? Promise.resolve();
  const run = before.then(locked, locked);
  runsInThisProcess.set(
    db,
    run.catch(() => undefined),
  );
  return run;
}
