import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import type { Database } from './database.ts';
import { openDatabase } from './open-database.ts';
import { defaultPoolSize } from './postgres.ts';

/**
 * DATABASE_POOL_SIZE bounds the connections one API process opens (docs/deploy.md): the operator
 * sizes processes x (pool + 1) against PostgreSQL's max_connections. Counted by PostgreSQL itself.
 */
describe.skipIf(!process.env.DATABASE_URL)('the pool of connections to PostgreSQL (postgres)', () => {
  let server: TestDatabase;
  beforeAll(async () => {
    server = await createTestDatabase('postgres', { migrated: false });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  /** Sends `concurrent` queries that each hold a connection a moment, then counts the pool's connections. */
  async function connectionsOpenedBy(poolSize: number | undefined, concurrent: number): Promise<number> {
    const applicationName = `pool-size-${poolSize ?? 'default'}`;
    const url = new URL(server.url ?? '');
    url.searchParams.set('application_name', applicationName);
    const db: Database = await openDatabase({ databaseUrl: url.toString(), dataDirectory: '/nonexistent', databasePoolSize: poolSize });
    try {
      await Promise.all(Array.from({ length: concurrent }, () => db.query('SELECT pg_sleep(0.05)')));
      // The pool keeps its idle connections; PostgreSQL lists each as a backend of this application.
      const [row] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      return row?.count ?? 0;
    } finally {
      await db.close();
    }
  }

  it('opens at most DATABASE_POOL_SIZE connections however many queries wait', async () => {
    expect(await connectionsOpenedBy(3, 12)).toBe(3);
  });

  it('opens up to the default of 20 when none is set', async () => {
    expect(defaultPoolSize).toBe(20);
    expect(await connectionsOpenedBy(undefined, 24)).toBe(20);
  });
});
