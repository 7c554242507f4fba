import path from 'node:path';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { defaultPoolSize, openPostgres } from './postgres.ts';
import { replicaPoolSizeOf, withReplicaReads } from './replica-reads.ts';

export interface DatabaseSettings {
  databaseUrl?: string;
  dataDirectory: string;
  /** PostgreSQL connections at most (DATABASE_POOL_SIZE); db/postgres.ts's default when absent. */
  databasePoolSize?: number;
  /** READ_DATABASE_URL: a replica for the reads that may go there (db/replica-reads.ts); with databaseUrl only. */
  readDatabaseUrl?: string;
}

/** Long enough for a database that is starting; short enough that a wrong address fails the start. */
const firstConnectionTimeoutMs = 15_000;

/**
 * The database cannot be reached at start: a fact about the setup, told in one line that names
 * the host and port (never the password), not a stack trace from the driver.
 */
export class DatabaseUnreachableError extends Error {
  constructor(where: string, cause: unknown) {
    super(`The server cannot start: PostgreSQL at ${where} cannot be reached (${reasonOf(cause)}). Check DATABASE_URL and that the database is running.`);
    this.name = 'DatabaseUnreachableError';
  }
}

/** A driver error in a few words: its code, or its first line (pg's messages carry no password). */
function reasonOf(cause: unknown): string {
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const firstLine = typeof message === 'string' ? message.split('\n')[0]?.trim() : '';
  if (firstLine) return typeof code === 'string' && !firstLine.includes(code) ? `${code}: ${firstLine}` : firstLine;
  return typeof code === 'string' ? code : 'no answer';
}

/** host:port/database of a connection URL, without the user name or password. */
function describeUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname === '/' ? '' : url.pathname}`;
}

async function openReachablePostgres(databaseUrl: string, poolSize: number | undefined): Promise<Database> {
  const db = await openPostgres(databaseUrl, poolSize);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${firstConnectionTimeoutMs / 1_000} s`), { code: 'ETIMEDOUT' })),
      firstConnectionTimeoutMs,
    );
  });
  const firstQuery = db.query('SELECT 1');
  // Whichever loses the race must not become an unhandled rejection.
  firstQuery.catch(() => undefined);
  try {
    await Promise.race([firstQuery, timeout]);
    return db;
  } catch (error) {
    // The pool may still be trying; the process is about to exit, so it is not waited for.
    void db.close().catch(() => undefined);
    throw new DatabaseUnreachableError(describeUrl(databaseUrl), error);
  } finally {
    clearTimeout(timer);
  }
}

/** PostgreSQL when `DATABASE_URL` is set, otherwise PGlite under `DATA_DIR/pglite`. */
export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  if (settings.databaseUrl) {
    const primary = await openReachablePostgres(settings.databaseUrl, settings.databasePoolSize);
    // The replica is not checked at start: one that is away must not stop the bank, whose reads go to the primary meanwhile.
    if (!settings.readDatabaseUrl) return primary;
    return withReplicaReads(primary, settings.readDatabaseUrl, replicaPoolSizeOf(settings.databasePoolSize ?? defaultPoolSize));
  }
  return openPglite({ dataDir: path.join(settings.dataDirectory, 'pglite') });
}
