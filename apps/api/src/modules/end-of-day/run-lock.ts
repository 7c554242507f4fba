import type { Database } from '../../db/database.ts';

/** The key of the end-of-day job's advisory lock (pg_advisory_xact_lock takes a bigint): "EOD" in ASCII. */
export const endOfDayLockKey = 0x454f44;

const runsInThisProcess = new WeakMap<Database, Promise<unknown>>();

/**
 * Runs `work` while no other end-of-day run does, in any process. The runs of this process first
 * wait in turn for each other (so two of them never hold two connections while one waits). On
 * PostgreSQL a transaction then holds a transaction-level advisory lock for the whole run, on a
 * connection of its own, while the run's work commits on others, day by day and account by
 * account: a run in another process (another server's job, the operator's command) waits for it
 * and then finds its days done. A process that dies drops its connection, so PostgreSQL ends the
 * transaction and the lock with it. PGlite belongs to one process and has one connection, whose
 * queries an open transaction would hold up, so there the turn within the process is the lock.
 */
export async function withEndOfDayLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const locked =
    db.kind === 'postgres'
      ? () =>
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_advisory_xact_lock($1)', [endOfDayLockKey]);
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
