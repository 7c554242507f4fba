import type pg from 'pg';
import type { Database, ReadLease, ReplicaReadOutcome, ReplicaReads } from './database.ts';
import { createPool, queryableOf, transactionOn } from './postgres.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * Reads from a replica where it is safe (issue 36 item 3, docs/deploy.md "Reads from replicas"):
 * READ_DATABASE_URL names a replica, or HAProxy's read port in front of several. Only the routes
 * that opt in (statements, history pages, the data export) read there, and only once the replica
 * has replayed the customer's own last write: the API keeps the primary's WAL position after each
 * of the customer's writes (platform/read-your-writes.ts) and a replica that has not replayed it
 * yet is passed over for the primary. A replica that is away, refuses or fails never fails a read:
 * the primary answers it instead.
 */

/**
 * A read that can go to the primary instead does not wait long for a replica connection: past
 * this (the replica behind a dead network path, or every replica connection busy) it goes to the
 * primary.
 */
const replicaConnectionTimeoutMs = 1_000;
/** After the replica could not be reached, reads go straight to the primary for this long, rather than each trying it first. */
const replicaRetryAfterMs = 5_000;

/** A WAL position as PostgreSQL writes a `pg_lsn`: two hexadecimal halves. */
const walPositionPattern = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

export function isWalPosition(text: string): boolean {
  return walPositionPattern.test(text);
}

/**
 * Half the primary's pool: these reads are a few routes' (statements, history pages, exports), and
 * each replica's max_connections is shared by every API process as the primary's is.
 */
export function replicaPoolSizeOf(primaryPoolSize: number): number {
  return Math.max(2, Math.floor(primaryPoolSize / 2));
}

/**
 * Caught up when the replica has replayed `position`. A server that is not in recovery (a replica
 * promoted since) has every commit of its timeline and is read like the primary.
 */
const caughtUpQuery = `SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() >= $1::pg_lsn ELSE true END AS caught_up`;

/**
 * A replica read that failed for the replica's sake, which the primary can answer instead: the
 * replica went away, or cancelled the query because replaying the primary's changes needed the
 * rows it read (SQLSTATE 40001 on a standby, "conflict with recovery").
 */
export function isReplicaFailure(error: unknown): boolean {
  const code: unknown = error !== null && typeof error === 'object' ? Reflect.get(error, 'code') : undefined;
  // A write refused by the replica (read_only_sql_transaction) is the route's defect, not the
  // replica's failure: it must not be run again on the primary, where the write would pass.
  if (code === readOnlyTransaction) return false;
  return code === '40001' || isDatabaseUnavailable(error);
}

const readOnlyTransaction = '25006';

/** The primary itself as a lease: nothing to give back. */
function primaryLease(primary: Database): ReadLease {
  return { source: 'primary', db: primary, release: () => undefined };
}

/**
 * A Database on one checked-out replica connection: its queries and (read-only) transactions run
 * there, one after another; listening stays the primary's, and closing it does nothing (release does).
 */
function pinnedDatabase(client: pg.PoolClient, primary: Database, onBroken: (error: Error) => void): Database {
  return {
    kind: 'postgres',
    query: queryableOf(client).query,
    transaction: (work, options) => transactionOn(client, work, options, onBroken),
    listen: (channel, onNotification, onReconnected) => primary.listen(channel, onNotification, onReconnected),
    close: async () => undefined,
  };
}

/** The primary `primary` with reads on the replica at `readUrl` for the routes that ask (`readOnReplica`). */
export function withReplicaReads(primary: Database, readUrl: string, poolSize: number): Database {
  const pool = createPool(readUrl, poolSize, replicaConnectionTimeoutMs);
  let replicaAwayUntilMs = 0;
  const outcomes: Record<ReplicaReadOutcome, number> = { replica: 0, behind: 0, unreachable: 0, failed: 0 };
  const onPrimary = (outcome: ReplicaReadOutcome): ReadLease => {
    outcomes[outcome] += 1;
    return primaryLease(primary);
  };

  async function lease(minimumPosition: string | undefined): Promise<ReadLease> {
    // The caller checks what the client sent (platform/read-your-writes.ts); anything else here is a defect.
    if (minimumPosition !== undefined && !isWalPosition(minimumPosition)) throw new Error(`Not a WAL position: ${minimumPosition}`);
    if (Date.now() < replicaAwayUntilMs) return onPrimary('unreachable');
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch {
      replicaAwayUntilMs = Date.now() + replicaRetryAfterMs;
      return onPrimary('unreachable');
    }
    let brokenConnection: Error | undefined;
    const onLost = (error: Error) => {
      brokenConnection = error;
    };
    // A checked-out client whose server goes away emits 'error'; unheard, that would end the process.
    client.on('error', onLost);
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      client.off('error', onLost);
      client.release(error ?? brokenConnection);
    };
    try {
      // One round trip that also proves the pooled connection is alive.
      const [row] = await queryableOf(client).query<{ caught_up: boolean }>(caughtUpQuery, [minimumPosition ?? '0/0'], { name: 'replica_caught_up' });
      if (row?.caught_up === true) {
        outcomes.replica += 1;
        return { source: 'replica', db: pinnedDatabase(client, primary, onLost), release };
      }
      release();
      return onPrimary('behind');
    } catch (error) {
      release(error instanceof Error ? error : new Error(String(error)));
      replicaAwayUntilMs = Date.now() + replicaRetryAfterMs;
      return onPrimary('unreachable');
    }
  }

  const replicaReads: ReplicaReads = {
    lease,
    outcomes,
    async primaryPosition() {
      const [row] = await primary.query<{ position: string }>('SELECT pg_current_wal_lsn()::text AS position', [], { name: 'primary_wal_position' });
      if (!row) throw new Error('pg_current_wal_lsn() answered no row');
      return row.position;
    },
  };
  return {
    ...primary,
    replicaReads,
    async close() {
      await pool.end();
      await primary.close();
    },
  };
}

/**
 * Runs `work` on a replica that has replayed `minimumPosition`, or on the primary: when there is no
 * replica (PGlite, no READ_DATABASE_URL), when it is behind, away, or fails during `work` (which
 * then runs again on the primary, so `work` must only read). Answers the lease `work` read on,
 * still held, for a file streamed after the route returns to read on; the caller releases it.
 */
export async function leaseForRead<T>(
  db: Database,
  minimumPosition: string | undefined,
  work: (reader: Database) => Promise<T>,
): Promise<{ value: T; lease: ReadLease }> {
  const lease = db.replicaReads ? await db.replicaReads.lease(minimumPosition) : primaryLease(db);
  try {
    return { value: await work(lease.db), lease };
  } catch (error) {
    if (lease.source !== 'replica' || !isReplicaFailure(error)) {
      lease.release();
      // Elsewhere 25006 means a node demoted under the bank (503, db/unavailable.ts); here it means
      // a route that opted into replica reads wrote, a defect that must answer 500 and be logged.
      // Its cause is left off on purpose: db/unavailable.ts follows causes and would call it an outage.
      if (lease.source === 'replica' && Reflect.get(Object(error), 'code') === readOnlyTransaction)
        // eslint-disable-next-line preserve-caught-error
        throw new Error(`A read sent to a replica tried to write (a route that may read a replica must only read): ${String(error)}`);
      throw error;
    }
    lease.release(error instanceof Error ? error : undefined);
    if (db.replicaReads) db.replicaReads.outcomes.failed += 1;
    return { value: await work(db), lease: primaryLease(db) };
  }
}

/** `work`'s reads on a caught-up replica, or on the primary (`leaseForRead`), the connection given back when it is done. */
export async function readOnReplica<T>(db: Database, minimumPosition: string | undefined, work: (reader: Database) => Promise<T>): Promise<T> {
  const { value, lease } = await leaseForRead(db, minimumPosition, work);
  lease.release();
  return value;
}
