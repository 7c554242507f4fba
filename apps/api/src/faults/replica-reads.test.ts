import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open-database.ts';
import { replicaPoolSizeOf } from '../db/replica-reads.ts';
import { TestBrowser } from '../test/client.ts';
import { ownTransfer, paymentSuite } from '../test/payments.ts';
import { findPostgresBinaries } from './support/postgres-cluster.ts';
import { createReplicaPair, findBaseBackup, type ReplicaPair } from './support/replica-pair.ts';

/**
 * Issue 36 item 3 on a real streaming standby: statements, history pages and the data export read
 * from the replica READ_DATABASE_URL names, except where it has not replayed the customer's own last
 * write (their write_position cookie), and never fail because of it (docs/deploy.md, "Reads from
 * replicas"). The standby's replay is paused to make it as stale as a lagging replica.
 */
const binaries = findPostgresBinaries();
const baseBackup = binaries && findBaseBackup(binaries);
if (!binaries || !baseBackup) {
  process.stdout.write('replica-reads: skipped, no initdb/pg_ctl/pg_basebackup on PATH or in /usr/lib/postgresql/*/bin\n');
}

/** The replica pool's connections name themselves, so the standby's pg_stat_activity shows whether they read there. */
const readerName = 'strongroom-replica-reads';
/** The primary's pool; the replica's is half of it (db/replica-reads.ts). */
const poolSize = 6;
/** How long closing the bank's pools may take before the servers are stopped anyway. */
const closeWaitMs = 10_000;

function descriptions(response: { json(): unknown }): string[] {
  return (response.json() as { items: { description: string }[] }).items.map((item) => item.description);
}

function today(config: Config): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: config.bankTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

describe.skipIf(!binaries || !baseBackup)('reads from a streaming replica, with read-your-writes by WAL position', () => {
  let pair: ReplicaPair | undefined;
  let bank: Database | undefined;
  let app: FastifyInstance;
  let config: Config;

  beforeAll(async () => {
    if (!binaries || !baseBackup) return;
    pair = await createReplicaPair(binaries, baseBackup);
    const readUrl = new URL(pair.standbyUrl);
    readUrl.searchParams.set('application_name', readerName);
    bank = await openDatabase({
      databaseUrl: pair.primary.url,
      readDatabaseUrl: readUrl.toString(),
      dataDirectory: '/nonexistent',
      databasePoolSize: poolSize,
    });
    await migrate(bank);
  });
  afterAll(async () => {
    // The servers are stopped even when a connection was never given back (closing the pool would wait for it forever).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([bank?.close().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, closeWaitMs)))]);
    clearTimeout(timer);
    await pair?.destroy();
  });

  const kit = paymentSuite(
    () => database(),
    (built) => ({ app, config } = built),
    { environment: { RAIL_SPEED: 'instant' } },
  );

  function database(): Database {
    if (!bank) throw new Error('the database is not open yet');
    return bank;
  }

  function cluster(): ReplicaPair {
    if (!pair) throw new Error('the replica pair is not started yet');
    return pair;
  }

  /** Runs `work` with the standby's replay paused: it keeps receiving the primary's WAL and applies none of it. */
  async function withReplayPaused(work: () => Promise<void>): Promise<void> {
    const { sql, standbyUrl } = cluster();
    await cluster().caughtUp();
    await sql(standbyUrl, 'SELECT pg_wal_replay_pause()');
    try {
      await work();
    } finally {
      await sql(standbyUrl, 'SELECT pg_wal_replay_resume()');
    }
  }

  /** replica_reads_total{outcome} as `/metrics` answers it (loopback). */
  async function replicaReads(outcome: 'replica' | 'behind' | 'unreachable' | 'failed'): Promise<number> {
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    const line = metrics.body.split('\n').find((text) => text.startsWith(`replica_reads_total{outcome="${outcome}"}`));
    return Number(line?.split(' ')[1] ?? 'NaN');
  }

  async function readerConnections(url: string): Promise<number> {
    const [row] = await cluster().sql<{ count: number }>(url, 'SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1', [readerName]);
    return row?.count ?? 0;
  }

  it('shows the customer their own transfer at once while the standby is behind, and serves a read without that write from the standby', async () => {
    const ada = await kit.customer();
    const adaElsewhere = await new TestBrowser(app).signInAs(database(), ada.id);
    const [servedBefore, behindBefore] = [await replicaReads('replica'), await replicaReads('behind')];
    await withReplayPaused(async () => {
      const paid = await kit.pay(ada, '/transfers', ownTransfer(ada.checking.id, ada.savings.id, 1_234, 'While the standby sleeps'));
      expect(paid.statusCode, paid.body).toBe(201);
      expect(ada.browser.cookies.write_position).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);

      const own = await ada.browser.get('/api/v1/transactions');
      expect(own.statusCode, own.body).toBe(200);
      expect(descriptions(own)).toContain('While the standby sleeps');

      // The same customer on a device that did not write: the standby answers, as it was before the transfer.
      const stale = await adaElsewhere.get('/api/v1/transactions');
      expect(stale.statusCode, stale.body).toBe(200);
      expect(descriptions(stale)).toEqual(['Opening deposit']);
      expect(await readerConnections(cluster().standbyUrl)).toBeGreaterThan(0);
      expect(await readerConnections(cluster().primary.url)).toBe(0);
      expect(await replicaReads('behind')).toBe(behindBefore + 1);
      expect(await replicaReads('replica')).toBe(servedBefore + 1);
    });
    await cluster().caughtUp();
    expect(descriptions(await adaElsewhere.get('/api/v1/transactions'))).toContain('While the standby sleeps');
  });

  it('streams a statement from the standby when it has the customer’s writes, and from the primary when it has not', async () => {
    const bea = await kit.customer();
    const beaElsewhere = await new TestBrowser(app).signInAs(database(), bea.id);
    const statementUrl = `/api/v1/accounts/${bea.checking.id}/statement?from=${today(config)}&to=${today(config)}&format=csv`;
    await withReplayPaused(async () => {
      const paid = await kit.pay(bea, '/transfers', ownTransfer(bea.checking.id, bea.savings.id, 4_321, 'Rent pot'));
      expect(paid.statusCode, paid.body).toBe(201);
      const own = await bea.browser.get(statementUrl);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.body).toContain('Rent pot');
      // More files than the replica pool has connections: each gives its connection back once sent, or the last would wait and go to the primary.
      for (let download = 0; download <= replicaPoolSizeOf(poolSize); download += 1) {
        const stale = await beaElsewhere.get(statementUrl);
        expect(stale.statusCode, stale.body).toBe(200);
        expect(stale.body).toContain('Opening deposit');
        expect(stale.body).not.toContain('Rent pot');
      }
      const months = await beaElsewhere.get(`/api/v1/accounts/${bea.checking.id}/statement/months`);
      expect(months.statusCode, months.body).toBe(200);
    });
  });

  it('exports data that includes the export itself though the standby has not replayed it', async () => {
    const cy = await kit.customer();
    // A device that never wrote: the export's own audit row is what the standby lacks.
    const cyElsewhere = await new TestBrowser(app).signInAs(database(), cy.id);
    await withReplayPaused(async () => {
      const response = await cyElsewhere.get('/api/v1/me/export');
      expect(response.statusCode, response.body).toBe(200);
      const files = unzipSync(new Uint8Array(response.rawPayload));
      const audit = Buffer.from(files['audit.json'] ?? new Uint8Array()).toString('utf8');
      expect(audit).toContain('customer.data_export');
    });
  });

  it('keeps answering statements and history from the primary once the standby is stopped', async () => {
    const dee = await kit.customer();
    const deeElsewhere = await new TestBrowser(app).signInAs(database(), dee.id);
    await cluster().caughtUp();
    const unreachableBefore = await replicaReads('unreachable');
    await cluster().stopStandby();
    const paid = await kit.pay(dee, '/transfers', ownTransfer(dee.checking.id, dee.savings.id, 999, 'After the standby went'));
    expect(paid.statusCode, paid.body).toBe(201);
    for (const browser of [dee.browser, deeElsewhere]) {
      const history = await browser.get('/api/v1/transactions');
      expect(history.statusCode, history.body).toBe(200);
      expect(descriptions(history)).toContain('After the standby went');
      const statement = await browser.get(`/api/v1/accounts/${dee.checking.id}/statement?from=${today(config)}&to=${today(config)}&format=csv`);
      expect(statement.statusCode, statement.body).toBe(200);
      expect(statement.body).toContain('After the standby went');
      const exported = await browser.get('/api/v1/me/export');
      expect(exported.statusCode, exported.body).toBe(200);
    }
    expect(await replicaReads('unreachable')).toBe(unreachableBefore + 6);
  });
});
