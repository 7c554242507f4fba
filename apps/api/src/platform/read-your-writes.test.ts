import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { withReplicaReads } from '../db/replica-reads.ts';
import { createTestDatabase, describeEachDatabase, openAnotherHandle, type TestDatabase } from '../test/databases.ts';
import { ownTransfer, paymentSuite } from '../test/payments.ts';

/**
 * Reads from replicas (issue 36 item 3, docs/deploy.md "Reads from replicas"). Without
 * READ_DATABASE_URL nothing changes: no cookie, every read on the one database. With it, a
 * customer's write leaves the primary's WAL position in an httpOnly, SameSite=Strict cookie. The
 * standby itself (behind, paused, stopped) is tested in faults/replica-reads.test.ts; here the
 * "replica" is the same PostgreSQL, reached through a pool of its own whose connections name themselves.
 */

interface SetCookie {
  name: string;
  value: string;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
  path?: string;
  maxAge?: number;
}

function writePositionSet(response: { cookies: unknown[] }): SetCookie | undefined {
  return (response.cookies as SetCookie[]).find((cookie) => cookie.name === 'write_position');
}

describeEachDatabase('reads without READ_DATABASE_URL', (database) => {
  const kit = paymentSuite(database, () => undefined, { environment: { RAIL_SPEED: 'instant' } });

  it('sets no write-position cookie after a write, and reads the customer their transfer from the one database', async () => {
    expect(database().replicaReads).toBeUndefined();
    const ada = await kit.customer();
    const paid = await kit.pay(ada, '/transfers', ownTransfer(ada.checking.id, ada.savings.id, 500, 'No replica here'));
    expect(paid.statusCode, paid.body).toBe(201);
    expect(writePositionSet(paid)).toBeUndefined();
    const history = await ada.browser.get('/api/v1/transactions');
    expect(history.statusCode).toBe(200);
    expect(history.json<{ items: { description: string }[] }>().items.map((item) => item.description)).toContain('No replica here');
    const exported = await ada.browser.get('/api/v1/me/export');
    expect(exported.statusCode).toBe(200);
    expect(writePositionSet(exported)).toBeUndefined();
    expect(Object.keys(ada.browser.cookies)).not.toContain('write_position');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('reads with READ_DATABASE_URL (postgres)', () => {
  const readerName = 'strongroom-read-your-writes-test';
  let server: TestDatabase;
  let primary: { db: Database; close(): Promise<void> };
  let withReplica: Database;
  beforeAll(async () => {
    server = await createTestDatabase('postgres');
    primary = await openAnotherHandle(server.db);
    const readUrl = new URL(server.url ?? '');
    readUrl.searchParams.set('application_name', readerName);
    withReplica = withReplicaReads(primary.db, readUrl.toString(), 2);
  });
  afterAll(async () => {
    // Closes the replica pool and the other handle's pool with it.
    await withReplica?.close();
    await server?.dispose();
  });

  const kit = paymentSuite(
    () => withReplica,
    () => undefined,
    { environment: { RAIL_SPEED: 'instant' } },
  );

  async function readerConnections(): Promise<number> {
    const [row] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1', [readerName]);
    return row?.count ?? 0;
  }

  it("keeps the primary's WAL position after each customer write in an httpOnly, SameSite=Strict cookie, never after a read", async () => {
    const bea = await kit.customer();
    const first = await kit.pay(bea, '/transfers', ownTransfer(bea.checking.id, bea.savings.id, 100, 'First'));
    expect(first.statusCode, first.body).toBe(201);
    const cookie = writePositionSet(first);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 86_400 });
    // Plain HTTP here: Secure only over HTTPS, where the name takes the __Host- prefix.
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.value).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);

    const refused = await kit.pay(bea, '/transfers', ownTransfer(bea.checking.id, bea.checking.id, 100, 'To itself'));
    expect(refused.statusCode).toBeLessThan(500);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    const afterRefusal = writePositionSet(refused);
    expect(afterRefusal?.value).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
    const [ordered] = await server.db.query<{ later: boolean }>('SELECT $1::pg_lsn >= $2::pg_lsn AS later', [afterRefusal?.value, cookie?.value]);
    expect(ordered?.later).toBe(true);

    const read = await bea.browser.get('/api/v1/transactions');
    expect(read.statusCode).toBe(200);
    expect(writePositionSet(read)).toBeUndefined();
  });

  it('reads history, statements and the export through the replica pool, and ignores a write-position cookie that is not one', async () => {
    const cy = await kit.customer();
    const paid = await kit.pay(cy, '/transfers', ownTransfer(cy.checking.id, cy.savings.id, 2_500, 'Through the reader'));
    expect(paid.statusCode, paid.body).toBe(201);
    const history = await cy.browser.get('/api/v1/transactions');
    expect(history.statusCode).toBe(200);
    expect(history.json<{ items: { description: string }[] }>().items.map((item) => item.description)).toContain('Through the reader');
    // The server is not in recovery, so it counts as caught up: the read went through the reader's pool.
    expect(await readerConnections()).toBeGreaterThan(0);

    const months = await cy.browser.request({
      method: 'GET',
      url: `/api/v1/accounts/${cy.checking.id}/statement/months`,
      cookies: { write_position: "0/0'; DROP" },
    });
    expect(months.statusCode, months.body).toBe(200);
    const exported = await cy.browser.get('/api/v1/me/export');
    expect(exported.statusCode).toBe(200);
  });
});
