import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import type { Database } from './database.ts';
import { DatabaseRateLimitStore } from '../platform/rate-limit-store.ts';
import { openPostgres } from './postgres.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * The database's absence answers 503 `service_unavailable`, never 500 or a hang (decision 036).
 * The whole story, with PostgreSQL crashed under load, is faults/bank-chaos.test.ts.
 */
/** The public contact form: a write that counts its sender (a rate limit) before anything else. */
const contactMessage = { name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 202 555 0101', subject: 'Savings', message: 'How do I open one?' };

describe('a database that is away', () => {
  it('is told apart from a query that is wrong', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isDatabaseUnavailable(coded('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(coded('ECONNRESET'))).toBe(true);
    expect(isDatabaseUnavailable(coded('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isDatabaseUnavailable(coded('57P02'))).toBe(true);
    expect(isDatabaseUnavailable(coded('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(coded('08006'))).toBe(true);
    expect(isDatabaseUnavailable(coded('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([coded('ECONNREFUSED')], ''))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: coded('57P01') }))).toBe(true);
    // A defect stays a defect: 500, logged with its stack.
    expect(isDatabaseUnavailable(coded('42601', 'syntax error at or near "SELEC"'))).toBe(false);
    expect(isDatabaseUnavailable(coded('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  describe('through the app, with the pool pointed at a port nobody listens on', () => {
    let db: Database;
    let app: FastifyInstance;
    beforeAll(async () => {
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const address = probe.address();
          probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
        });
      });
      db = await openPostgres(`postgres://strongroom@127.0.0.1:${port}/strongroom`);
      ({ app } = await buildTestApp(db));
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    it('answers readiness 503', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('service_unavailable');
    });

    it('answers a signed-in read and a payment 503 in the error shape, with Retry-After', async () => {
      const sessionId = 'a-session-the-database-would-know';
      const cookies = { session: sessionId, csrf: app.csrfTokenFor(sessionId) };
      const read = await app.inject({ method: 'GET', url: '/api/v1/accounts', cookies });
      const pay = await app.inject({
        method: 'POST',
        url: '/api/v1/transfers',
        cookies,
        headers: { 'x-csrf-token': cookies.csrf, 'idempotency-key': 'a2b0f7c4-4a5e-4a0c-9d7e-0c9a7b1f2e3d' },
        payload: { kind: 'own', fromAccountId: crypto.randomUUID(), toAccountId: crypto.randomUUID(), amountCents: 100, message: 'Rent' },
      });
      for (const response of [read, pay]) {
        expect(response.statusCode, response.body).toBe(503);
        expect(response.headers['retry-after']).toBe('2');
        const { error } = response.json();
        expect(error).toEqual({ code: 'service_unavailable', message: expect.stringContaining('try again'), requestId: expect.any(String) });
        expect(response.body).not.toContain('ECONNREFUSED');
      }
    });

    it('answers 503 when a rate limit cannot be counted, the counter being in the database (decision 042)', async () => {
      // The store hands the driver's error on as it is, so the error handler knows it for an outage.
      const counting = new DatabaseRateLimitStore(db, undefined, 'POST /api/v1/contact').increment('198.51.100.7', 60_000);
      const error = await counting.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      // The contact form counts its sender (onRequest) before anything else touches the database.
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/contact',
        remoteAddress: '198.51.100.7',
        payload: contactMessage,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json().error.code).toBe('service_unavailable');
    });
  });

  describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL connection lost in the middle of a transaction', () => {
    let testDatabase: TestDatabase;
    beforeAll(async () => {
      testDatabase = await createTestDatabase('postgres', { migrated: false });
    });
    afterAll(async () => {
      await testDatabase.dispose();
    });

    it('fails that transaction as unavailable without ending the process, and the pool carries on', async () => {
      const { db } = testDatabase;
      const failed = db.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // The server ends this connection while no query of it is running: node-postgres then
        // emits 'error' on the checked-out client, which used to be an uncaught exception.
        await db.query('SELECT pg_terminate_backend($1)', [row?.pid]);
        await sleep(200);
        await tx.query('SELECT 1');
      });
      const error = await failed.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  });

  /**
   * Through a failover, a connection can reach a node that is a standby: the write port's HAProxy
   * has not yet noticed, or a connection opened just before a switchover demoted its node. A
   * standby's transactions are read-only; a database set `default_transaction_read_only` is the
   * same to the bank, and lets this run on one PostgreSQL (docs/deploy.md, "The bank through a
   * failover").
   */
  describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL that accepts no writes, as a standby does', () => {
    let testDatabase: TestDatabase;
    let readOnly: Database;
    let app: FastifyInstance;
    beforeAll(async () => {
      testDatabase = await createTestDatabase('postgres');
      const name = new URL(testDatabase.url ?? '').pathname.slice(1);
      await testDatabase.db.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      readOnly = await openPostgres(testDatabase.url ?? '');
      ({ app } = await buildTestApp(readOnly));
    });
    afterAll(async () => {
      await app.close();
      await readOnly.close();
      await testDatabase.dispose();
    });

    it('is not ready: a process there could take no payment', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('accepts no writes') });
    });

    it('answers a write 503 with Retry-After, never 500', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/contact',
        remoteAddress: '198.51.100.8',
        payload: contactMessage,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
    });
  });

  /**
   * A statement timeout set on the role or the database would cancel COMMIT too, and a COMMIT
   * cancelled while it waits for the synchronous standby stays committed on the primary alone. The
   * bank's connections therefore run without one (db/postgres.ts).
   */
  describe.skipIf(!process.env.DATABASE_URL)('a statement timeout set for the role or the database', () => {
    let testDatabase: TestDatabase;
    let bank: Database;
    beforeAll(async () => {
      testDatabase = await createTestDatabase('postgres', { migrated: false });
      const name = new URL(testDatabase.url ?? '').pathname.slice(1);
      await testDatabase.db.query(`ALTER DATABASE ${name} SET statement_timeout = '20ms'`);
      bank = await openPostgres(testDatabase.url ?? '');
    });
    afterAll(async () => {
      await bank.close();
      await testDatabase.dispose();
    });

    it('does not apply to the bank, in a query or a transaction', async () => {
      expect(await bank.query<{ statement_timeout: string }>('SHOW statement_timeout')).toEqual([{ statement_timeout: '0' }]);
      await expect(bank.query('SELECT pg_sleep(0.1)')).resolves.toHaveLength(1);
      await expect(bank.transaction((tx) => tx.query('SELECT pg_sleep(0.1)'))).resolves.toHaveLength(1);
    });
  });
});
