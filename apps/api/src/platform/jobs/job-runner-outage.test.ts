import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { openPostgres } from '../../db/postgres.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { JobRunner } from './job-runner.ts';

/**
 * A TCP relay in front of PostgreSQL that can drop every connection and refuse new ones, as the
 * write port of HAProxy does while no primary is elected, then carry on.
 */
async function startRelay(target: URL): Promise<{ port: number; cut(): void; heal(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    heal() {
      open = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The job runner through a failover, on PostgreSQL (PGlite has no connection to lose): a job whose
 * effect committed but whose "done" mark met a dead connection runs again once the database is
 * back, and its effect, made safe to repeat, happens once (docs/deploy.md, "The bank through a
 * failover").
 */
describe.skipIf(!process.env.DATABASE_URL)('the job runner when the database goes away mid-run (postgres)', () => {
  let testDatabase: TestDatabase;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let db: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase('postgres');
    const url = new URL(testDatabase.url ?? '');
    relay = await startRelay(new URL(url));
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    db = await openPostgres(url.toString(), 4);
    await testDatabase.db.query('CREATE TABLE settled (settlement text PRIMARY KEY)');
  });
  afterAll(async () => {
    await db.close();
    await relay.close();
    await testDatabase.dispose();
  });

  it('runs the job again once the database is back, and its effect happens once', async () => {
    const runner = new JobRunner(db, pino({ level: 'silent' }), { retryBaseDelayMs: 60_000 });
    let runs = 0;
    runner.register('settle', async (payload) => {
      runs++;
      const { settlement } = payload as { settlement: string };
      await db.query('INSERT INTO settled (settlement) VALUES ($1) ON CONFLICT DO NOTHING', [settlement]);
      // The effect has committed; the database goes away before the job is marked done.
      if (runs === 1) relay.cut();
    });
    const id = await runner.enqueue({ kind: 'settle', payload: { settlement: 'batch-1' }, maxAttempts: 1 });

    await runner.runOnce();
    await expect(runner.runOnce()).rejects.toSatisfy((error) => error instanceof Error);
    relay.heal();
    await runner.runOnce();

    expect(runs).toBe(2);
    expect(await testDatabase.db.query('SELECT settlement FROM settled')).toEqual([{ settlement: 'batch-1' }]);
    const [job] = await testDatabase.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM jobs WHERE id = $1', [id]);
    expect(job).toEqual({ status: 'done', attempts: 1 });
  });
});
