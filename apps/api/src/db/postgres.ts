import pg from 'pg';
import { createPostgresListener } from './postgres-listener.ts';
import { beginStatement, parseInt8, postgresTypeOids, type Database, type Queryable, type QueryOptions } from './database.ts';

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

/** Both drivers answer bigint as BigInt; everything else keeps node-postgres's defaults. */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === postgresTypeOids.int8) return parseInt8;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export async function openPostgres(connectionString: string, poolSize = defaultPoolSize): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: typeParsers,
    connectionTimeoutMillis: connectionTimeoutMs,
    keepAlive: true,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);

  const asQueryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row extends object>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const result = await target.query<Row>({ text, values: params as unknown[], name: options.name });
      return result.rows;
    },
  });
  const root = asQueryable(pool);
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
        await client.query(beginStatement(options));
        const result = await work({
          ...asQueryable(client),
          executeScript: async (script) => void (await client.query(script)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          brokenConnection = rollbackError;
        });
        throw error;
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
