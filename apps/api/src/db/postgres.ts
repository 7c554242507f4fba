import pg from 'pg';
import { createPostgresListener } from './postgres-listener.ts';
import { parseTimestamptz } from './timestamp.ts';
import {
  beginStatement,
  parseInt8,
  postgresTypeOids,
  type Database,
  type Queryable,
  type QueryOptions,
  type Transaction,
  type TransactionOptions,
} from './database.ts';

/**
 * Connections per process. Ten starved the payment path at 32 concurrent requests (each request
 * reads before its group transaction, and up to four groups hold one each): own transfers went
 * from 204/s to 363/s at 24, and 40 bought nothing more (decision 044). Twenty leaves room for
 * four processes under PostgreSQL's default max_connections of 100. DATABASE_POOL_SIZE sets it
 * (config.ts, docs/deploy.md).
 */
export const defaultPoolSize = 20;
/**
 * How long a request waits for a connection: a database that is down refuses at once, but one
 * behind a dead network path would otherwise hang every request. Past this the request answers
 * 503 (db/unavailable.ts).
 */
const connectionTimeoutMs = 5_000;
/**
 * No statement timeout on the bank's connections, whatever the role or database says. A timeout
 * cancels COMMIT too, and a COMMIT cancelled while it waits for the synchronous standby leaves
 * the transaction committed on the primary but not on the standby: visible, acknowledged by
 * nothing, and lost if the primary dies next (docs/deploy.md, "The bank through a failover").
 * node-postgres sends `statement_timeout` only when it is not zero, so it goes as a startup
 * option; an `options` parameter in DATABASE_URL itself would replace it.
 */
const startupOptions = '-c statement_timeout=0';

const driverTimestamptz = pg.types.getTypeParser(postgresTypeOids.timestamptz, 'text');
const readTimestamptz = (text: string) => parseTimestamptz(text, driverTimestamptz);

/**
 * Both drivers answer bigint as BigInt; timestamptz is read by the bank's own parser (the same
 * Date as node-postgres's, found without a regular expression); everything else keeps
 * node-postgres's defaults.
 */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === postgresTypeOids.int8) return parseInt8;
    if (oid === postgresTypeOids.timestamptz && format !== 'binary') return readTimestamptz;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

/** A pool with the bank's type parsers, keep-alive and connection timeout, whose idle connections may die without ending the process. */
export function createPool(connectionString: string, poolSize: number, connectionTimeout = connectionTimeoutMs): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: typeParsers,
    connectionTimeoutMillis: connectionTimeout,
    keepAlive: true,
    options: startupOptions,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export function queryableOf(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row extends object>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const result = await target.query<Row>({ text, values: params as unknown[], name: options.name });
      return result.rows;
    },
  };
}

/**
 * One SQL transaction on `client`: committed if `work` resolves, rolled back if it throws. A
 * ROLLBACK that fails leaves the connection in an unknown state: `onBroken` hears of it, and the
 * caller destroys the connection rather than reuse it.
 */
export async function transactionOn<T>(
  client: pg.PoolClient,
  work: (tx: Transaction) => Promise<T>,
  options: TransactionOptions | undefined,
  onBroken: (error: Error) => void,
): Promise<T> {
  try {
    await client.query(beginStatement(options));
    const result = await work({ ...queryableOf(client), executeScript: async (script) => void (await client.query(script)) });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(onBroken);
    throw error;
  }
}

export async function openPostgres(connectionString: string, poolSize = defaultPoolSize): Promise<Database> {
  const pool = createPool(connectionString, poolSize);
  const root = queryableOf(pool);
  // Its own connection, opened by the first listen only (db/postgres-listener.ts).
  const listener = createPostgresListener(connectionString);

  return {
    kind: 'postgres',
    query: root.query,
    async transaction(work, options) {
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is in an unknown state and is destroyed, not reused.
      let brokenConnection: Error | undefined;
      // A checked-out client whose server goes away emits 'error'; unheard, that would end the
      // process. The query in flight fails with the same error, which the caller gets.
      const onLost = (error: Error) => {
        brokenConnection = error;
      };
      client.on('error', onLost);
      try {
        return await transactionOn(client, work, options, onLost);
      } finally {
        client.off('error', onLost);
        client.release(brokenConnection);
      }
    },
    listen: listener.listen,
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
