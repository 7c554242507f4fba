import type { Database } from '../db/database.ts';

/** The runs of this process, per database and lock key, each waiting for the one before. */
const runsInThisProcess = new WeakMap<Database, Map<number, Promise<unknown>>>();

/**
 * Runs `work` while no other run under the same `key` does, in any process: a job that must run
 * one at a time across servers and the operator's command (end of day, scheduled payments). The
 * runs of this process first wait in turn for each other (so two of them never hold two
 * connections while one waits). On PostgreSQL a transaction then holds a transaction-level
 * advisory lock (`pg_advisory_xact_lock(key)`) for the whole run, on a connection of its own, while
 * the run's work commits on others: a run in another process waits for it and then finds its work
 * done. A process that dies drops its connection, so PostgreSQL ends the transaction and the lock
 * with it. PGlite belongs to one process and has one connection, whose queries an open transaction
 * would hold up, so there the turn within the process is the lock.
 */
export async function withRunLock<T>(db: Database, key: number, work: () => Promise<T>): Promise<T> {
  const locked =
    db.kind === 'postgres'
      ? () =>
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
            return work();
          })
      : work;
  let runs = runsInThisProcess.get(db);
  if (!runs) {
    runs = new Map();
    runsInThisProcess.set(db, runs);
  }
  const run = (runs.get(key) ?? Promise.resolve()).then(locked, locked);
  runs.set(
    key,
    run.catch(() => undefined),
  );
  return run;
}
