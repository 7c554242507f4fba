import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../app.ts';
import type { Config } from '../config.ts';
import { TestClock } from '../db/clock.ts';
import type { Database } from '../db/database.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import { lastBusinessDayBefore } from '../modules/end-of-day/run.ts';
import { calendarDayIn } from '../platform/business-calendar.ts';
import { derivedUuid } from '../platform/derived-id.ts';
import { defaultJobLeaseMs } from '../platform/jobs/job-runner.ts';
import { buildTestApp, LogCapture } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../test/payments.ts';
import { crashWorkerOnLockedRow, prepareWorker, stopIdleWorkers } from './support/jobs-crash.ts';
import { repositoryRoot } from './support/server-process.ts';

/**
 * Issue 32 item 5: the end-of-day job (end-of-day.run), killed by SIGKILL between a month end's
 * accruals and the postings of its cycle close, some accounts' cycles closed and the rest not, then
 * run again by a restarted server: every account's interest is posted once, every statement
 * written once, every business day done once, and the ledger green. As in jobs-under-crashes, the
 * crash is made deterministic by a row lock the test holds (the third account's ledger row, which
 * its cycle close locks first), on PostgreSQL only.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('the end-of-day job killed mid-run by SIGKILL resumes and posts each interest once (PostgreSQL)', () => {
  let testDatabase: TestDatabase;
  let db: Database;
  let app: FastifyInstance;
  let config: Config;
  const clock = new TestClock();
  const payments = paymentKit(() => ({ app, config, db }));
  const environment = { RAIL_SPEED: 'instant', KYC_AUTO_APPROVE_SECONDS: 'off', CARD_AUTO_APPROVE_SECONDS: 'off' };

  beforeAll(async () => {
    testDatabase = await createTestDatabase('postgres');
    db = testDatabase.db;
    ({ app, config } = await buildTestApp(db, { environment, dependencies: { clock } }));
  });
  afterAll(async () => {
    await stopIdleWorkers();
    await app?.close();
    await testDatabase?.dispose();
  });

  const count = async (text: string, values: unknown[]) => Number((await db.query<{ n: bigint }>(text, values))[0]?.n ?? 0n);

  it('end of day (end-of-day.run): killed after some accounts of a month end were closed, each cycle is closed and posted once', async () => {
    if (!testDatabase.url) throw new Error('no PostgreSQL url');
    const worker = prepareWorker(testDatabase.url, {
      ...environment,
      BANK_MODE: 'sandbox',
      DATA_DIR: config.dataDirectory,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(repositoryRoot, 'apps/api/src/faults/no-web-app'),
    });
    const savers: PayingCustomer[] = [];
    for (let index = 0; index < 3; index += 1) savers.push(await payments.customer({ fundCents: 1_000_000n, savingsCents: 900_000 }));
    // The worker's clock stands 40 days on: its job runs every business day up to the last one before then, through a month end or two.
    const workerAt = new Date(Math.max(clock.now().getTime(), Date.now()) + 40 * 86_400_000);
    const through = lastBusinessDayBefore(calendarDayIn(config.bankTimeZone, workerAt));
    const [firstMonthEnd] = await db.query<{ day: string }>(
      "SELECT (date_trunc('month', (now() AT TIME ZONE $1)::date) + interval '1 month - 1 day')::date::text AS day",
      [config.bankTimeZone],
    );
    const monthEnd = firstMonthEnd!.day;
    expect(monthEnd <= through).toBe(true);

    // Cycles close in account id order; the third account's close waits for our lock on its ledger row.
    const accounts = await db.query<{ id: string; ledger_account_id: string }>('SELECT id, ledger_account_id FROM customer_accounts ORDER BY id');
    expect(accounts).toHaveLength(6);
    const crashed = await crashWorkerOnLockedRow({
      databaseUrl: testDatabase.url,
      worker,
      lock: { text: 'SELECT id FROM ledger_accounts WHERE id = $1 FOR UPDATE', values: [accounts[2]!.ledger_account_id] },
      at: workerAt,
    });
    expect(crashed.ended).toBe('SIGKILL');

    // Mid-run: the month end's accruals committed, two accounts' cycles closed, the rest not; the day still running.
    const statementsOf = (day: string) =>
      db.query<{ account_id: string }>('SELECT account_id FROM monthly_statements WHERE period_end = $1::date ORDER BY account_id', [day]);
    expect((await statementsOf(monthEnd)).map((row) => row.account_id)).toEqual([accounts[0]!.id, accounts[1]!.id]);
    expect(await count('SELECT count(*) AS n FROM interest_accruals WHERE day = $1::date', [monthEnd])).toBe(6);
    expect(await count("SELECT count(*) AS n FROM business_days WHERE status = 'running'", [])).toBe(1);
    const interestBefore = await db.query<{ id: string; amount_cents: bigint }>("SELECT id, amount_cents FROM payments WHERE kind = 'interest' ORDER BY id");

    // The server started again past the dead worker's lease runs the job again and finishes the day, then the rest.
    const restarted = await build(config, { db, clock: new TestClock(new Date(workerAt.getTime() + defaultJobLeaseMs + 1_000)), logStream: new LogCapture() });
    try {
      for (let pass = 0; pass < 10; pass += 1) if ((await restarted.services.jobs.runOnce()) === 0) break;
    } finally {
      await restarted.close();
    }
    expect(await db.query("SELECT kind, status FROM jobs WHERE status IN ('running', 'queued') AND kind = 'end-of-day.run'")).toEqual([]);
    expect(await count("SELECT count(*) AS n FROM business_days WHERE status <> 'done'", [])).toBe(0);
    expect((await db.query<{ day: string }>('SELECT max(day)::text AS day FROM business_days'))[0]?.day).toBe(through);
    expect((await statementsOf(monthEnd)).map((row) => row.account_id)).toEqual(accounts.map((account) => account.id));

    for (const saver of savers) {
      // One interest payment per month end closed, under its derived id; the two made before the crash unchanged.
      const interest = await db.query<{ id: string }>("SELECT id FROM payments WHERE kind = 'interest' AND to_account_id = $1", [saver.savings.id]);
      const closed = await db.query<{ period_end: string }>('SELECT period_end::text AS period_end FROM monthly_statements WHERE account_id = $1', [
        saver.savings.id,
      ]);
      expect(interest.map((row) => row.id).sort()).toEqual(closed.map((row) => derivedUuid('interest', saver.savings.id, row.period_end)).sort());
      expect(await count("SELECT count(*) AS n FROM notifications WHERE customer_id = $1 AND name = 'Your statement is ready'", [saver.id])).toBe(
        2 * closed.length,
      );
    }
    const interestAfter = new Map(
      (await db.query<{ id: string; amount_cents: bigint }>("SELECT id, amount_cents FROM payments WHERE kind = 'interest'")).map((row) => [
        row.id,
        row.amount_cents,
      ]),
    );
    for (const row of interestBefore) expect(interestAfter.get(row.id)).toBe(row.amount_cents);
    expect((await checkLedger(db)).violations).toEqual([]);
  });
});
