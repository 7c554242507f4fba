/**
 * One query layer for both databases: hand-written, parameterised SQL through this small interface.
 * PGlite (embedded, the default) and PostgreSQL (`DATABASE_URL`) speak the same SQL; this file hides
 * only how each is connected. See docs/decisions/002-database-and-query-layer.md.
 */
export type DatabaseKind = 'pglite' | 'postgres';

export interface QueryOptions {
  /**
   * A statement name makes PostgreSQL keep the plan as a named prepared statement on each
   * connection (measured 34% faster on hot paths). PGlite ignores it.
   */
  name?: string;
}

export interface Queryable {
  query<Row extends object>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface Transaction extends Queryable {
  /** Runs a script of several statements without parameters (migrations only). */
  executeScript(script: string): Promise<void>;
}

export interface TransactionOptions {
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
}

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs `work` in one SQL transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Calls `onNotification` with the payload of every `NOTIFY` on `channel` (a lower-case name)
   * from any connection to this database, this process's own included; resolves once listening,
   * with a function that stops. On PostgreSQL one dedicated connection listens for all channels
   * and reconnects after a loss; notifications sent while it was away are gone, so `onReconnected`
   * is called once it listens again (db/postgres-listener.ts); a database that is away when listen
   * is called is treated the same way. PGlite has one connection in this process and never loses it.
   */
  listen(channel: string, onNotification: (payload: string) => void, onReconnected?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * Present on PostgreSQL with READ_DATABASE_URL only: reads that tolerate a replica may go there
   * (db/replica-reads.ts, docs/deploy.md). A route opts in explicitly (platform/read-your-writes.ts);
   * everything else, and every read when this is absent (PGlite, no READ_DATABASE_URL), reads the primary.
   */
  readonly replicaReads?: ReplicaReads;
}

/** A handle to read from for one request, and where it reads. */
export interface ReadLease {
  /** A replica that has replayed the position asked for, or the primary when none has (or none answers). */
  readonly source: 'replica' | 'primary';
  /** On a replica: one connection, held until released, so every read of the request sees the same server, never an older state. */
  readonly db: Database;
  /** Gives the connection back (with the error that broke it, if one did); calling it again does nothing. */
  release(error?: Error): void;
}

/** Where a read that could go to a replica went: there, or to the primary because the replica was behind, could not be reached, or failed during the read. */
export type ReplicaReadOutcome = 'replica' | 'behind' | 'unreachable' | 'failed';

export interface ReplicaReads {
  /**
   * A replica connection that has replayed `minimumPosition` (a WAL position, `pg_lsn` text), or
   * the primary when the replica is behind, away or refuses. Never fails for the replica's sake.
   */
  lease(minimumPosition: string | undefined): Promise<ReadLease>;
  /** The primary's WAL position now (`pg_current_wal_lsn()`): every commit acknowledged so far is at or before it. */
  primaryPosition(): Promise<string>;
  /** How many reads had each outcome since the process started (`/metrics`: replica_reads_total). */
  readonly outcomes: Record<ReplicaReadOutcome, number>;
}

/** Channel names are written into LISTEN as identifiers, so only plain lower-case names are allowed. */
export function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
}

/** PostgreSQL type oids whose parsing both drivers must agree on. */
export const postgresTypeOids = { int8: 20, timestamptz: 1184 } as const;

/** bigint columns (money in cents, counters) come back as BigInt from both drivers. */
export function parseInt8(value: string): bigint {
  return BigInt(value);
}

export function beginStatement(options?: TransactionOptions): string {
  return options?.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation.toUpperCase()}` : 'BEGIN';
}
