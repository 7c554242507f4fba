import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../app.ts';
import type { Config } from '../config.ts';
import { TestClock } from '../db/clock.ts';
import type { Database } from '../db/database.ts';
import { createTransferBatcher } from '../ledger/batcher.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import { scheduledPaymentsJobKind } from '../modules/scheduled-payments/jobs.ts';
import { cutoffInstant } from '../modules/scheduled-payments/occurrences.ts';
import { runScheduledPayments } from '../modules/scheduled-payments/run.ts';
import { calendarDayIn, nextBusinessDay } from '../platform/business-calendar.ts';
import { createOutboxSmsSender } from '../platform/messaging/sms-sender.ts';
import { defaultJobLeaseMs } from '../platform/jobs/job-runner.ts';
import { buildTestApp, LogCapture } from '../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../test/databases.ts';
import { ownTransfer, paymentKit } from '../test/payments.ts';
import { crashWorkerOnLockedRow, prepareWorker, stopIdleWorkers } from './support/jobs-crash.ts';
import { repositoryRoot } from './support/server-process.ts';

/**
 * Issue 33: the scheduled-payments job (scheduled-payments.run), killed by SIGKILL after an
 * occurrence's payment committed and before its outcome was recorded, then run again by a
 * restarted server, pays the occurrence once: the rerun's payment, under the Idempotency-Key
 * derived from the schedule, the due date and the attempt, replays the stored answer, and the
 * occurrence is recorded paid with that same transfer. As in jobs-under-crashes, the crash is made
 * deterministic by a row lock the test holds (the occurrence's row, which the run locks to record
 * the outcome once the payment has committed), on PostgreSQL only.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('the scheduled-payments job killed between the ledger and the outcome pays once when run again (PostgreSQL)', () => {
  let testDatabase: TestDatabase;
  let db: Database;
  let app: FastifyInstance;
  let config: Config;
  /** The seeding app's clock: it stands still; the worker is given an instant after it. */
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

  it('scheduled payments (scheduled-payments.run): killed after a retry was paid and before it was recorded, the occurrence is paid once', async () => {
    if (!testDatabase.url) throw new Error('no PostgreSQL url');
    const worker = prepareWorker(testDatabase.url, {
      ...environment,
      BANK_MODE: 'sandbox',
      DATA_DIR: config.dataDirectory,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(repositoryRoot, 'apps/api/src/faults/no-web-app'),
    }); // loads while the test seeds
    const { bankTimeZone: timeZone, achCutoff } = config;
    // $1,000.00 in checking (the opening deposit, which also waives checking's fee of any month end the jobs close), none in savings.
    const dana = await payments.customer();
    const friend = await payments.customer({ fundCents: 500_000n });
    const amountCents = 150_000;
    const firstDay = nextBusinessDay(calendarDayIn(timeZone, clock.now()));
    const retryDay = nextBusinessDay(firstDay);
    const made = await dana.browser.request({
      method: 'POST',
      url: '/api/v1/scheduled-payments',
      headers: { 'idempotency-key': randomUUID() },
      payload: { payment: ownTransfer(dana.checking.id, dana.savings.id, amountCents, 'Crash pot'), startDate: firstDay, frequency: 'once' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const scheduleId = made.json<{ schedule: { id: string } }>().schedule.id;

    const occurrence = async () =>
      (
        await db.query<{ status: string; attempts: number; retry_date: string | null; transfer_id: string | null }>(
          `SELECT status, attempts, retry_date::text AS retry_date, transfer_id FROM scheduled_payment_occurrences
            WHERE schedule_id = $1 AND due_date = $2::date`,
          [scheduleId, firstDay],
        )
      )[0];
    /** The payments of this schedule's amount from Dana's checking to her savings that were made (a refusal is kept as failed). */
    const madePayments = async () =>
      (
        await db.query<{ id: string; status: string }>(
          `SELECT id, status FROM payments
            WHERE customer_id = $1 AND kind = 'own' AND amount_cents = $2 AND from_account_id = $3 AND to_account_id = $4 AND status <> 'failed'
            ORDER BY id`,
          [dana.id, amountCents, dana.checking.id, dana.savings.id],
        )
      ).map((row) => row.id);
    const notices = (name: string) =>
      count("SELECT count(*) AS n FROM notifications WHERE customer_id = $1 AND kind = 'scheduled_payment' AND name = $2", [dana.id, name]);

    // The first attempt, at the first day's cut-off, finds $1,000.00 for $1,500.00: refused, to be tried again the next business day.
    const run = await runScheduledPayments(
      {
        db,
        config,
        clock,
        ledger: createTransferBatcher(db, { clock }),
        sms: createOutboxSmsSender(db),
        stepUpMethods: {},
        liveEvents: app.services.liveEvents,
      },
      { through: firstDay, now: new Date(cutoffInstant(firstDay, achCutoff, timeZone).getTime() + 60_000) },
    );
    expect(run).toEqual({ paid: 0, retrying: 1, skipped: 0, failed: 0 });
    expect(await occurrence()).toEqual({ status: 'scheduled', attempts: 1, retry_date: retryDay, transfer_id: null });
    expect(await madePayments()).toEqual([]);
    // Then money comes in: enough for the payment twice over, so a second payment would be made, not refused.
    const paidIn = await payments.payCustomer(friend, dana, { accountName: 'Demo Customer', amountCents: 200_000, message: 'Top up' });
    expect(paidIn.statusCode, paidIn.body).toBe(201);
    expect(await payments.balances(dana)).toEqual({
      checking: { balanceCents: 300_000, availableCents: 300_000 },
      savings: { balanceCents: 0, availableCents: 0 },
    });

    // The worker's clock stands a minute past the retry day's cut-off: its scheduled-payments job pays the retry, then waits
    // for our lock on the occurrence's row to record it, and is killed there.
    const workerAt = new Date(cutoffInstant(retryDay, achCutoff, timeZone).getTime() + 60_000);
    const crashed = await crashWorkerOnLockedRow({
      databaseUrl: testDatabase.url,
      worker,
      lock: {
        text: 'SELECT schedule_id FROM scheduled_payment_occurrences WHERE schedule_id = $1 AND due_date = $2::date FOR UPDATE',
        values: [scheduleId, firstDay],
      },
      at: workerAt,
    });
    expect(crashed.ended).toBe('SIGKILL');

    // Mid-run: the payment committed with its ledger transfer; the occurrence still waits for its second attempt, untold.
    const paid = await madePayments();
    expect(paid).toHaveLength(1);
    const transferId = paid[0]!;
    expect(await count('SELECT count(*) AS n FROM ledger_transfers WHERE id = $1', [transferId])).toBe(1);
    expect(await occurrence()).toEqual({ status: 'scheduled', attempts: 1, retry_date: retryDay, transfer_id: null });
    expect(await notices('Scheduled payment sent')).toBe(0);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE kind = $1 AND status = 'running'", [scheduledPaymentsJobKind])).toBe(1);

    // The server started again past the dead worker's lease runs the job again: the same attempt, the same key, the stored answer.
    const restarted = await build(config, { db, clock: new TestClock(new Date(workerAt.getTime() + defaultJobLeaseMs + 1_000)), logStream: new LogCapture() });
    try {
      for (let pass = 0; pass < 10; pass += 1) if ((await restarted.services.jobs.runOnce()) === 0) break;
    } finally {
      await restarted.close();
    }
    expect(await db.query("SELECT kind, status FROM jobs WHERE status IN ('running', 'queued')")).toEqual([]);

    expect(await occurrence()).toEqual({ status: 'paid', attempts: 2, retry_date: null, transfer_id: transferId });
    expect(await madePayments()).toEqual([transferId]);
    expect(await count('SELECT count(*) AS n FROM ledger_transfers WHERE id = $1', [transferId])).toBe(1);
    const [ledgerAccounts] = await db.query<{ checking: string; savings: string }>(
      `SELECT c.ledger_account_id AS checking, s.ledger_account_id AS savings
         FROM customer_accounts c, customer_accounts s WHERE c.id = $1 AND s.id = $2`,
      [dana.checking.id, dana.savings.id],
    );
    expect(
      await count('SELECT count(*) AS n FROM ledger_transfers WHERE debit_account_id = $1 AND credit_account_id = $2 AND amount = $3', [
        ledgerAccounts!.checking,
        ledgerAccounts!.savings,
        amountCents,
      ]),
    ).toBe(1);
    // The money moved once: $1,000.00 + $2,000.00 - $1,500.00 in checking, $1,500.00 in savings.
    expect(await payments.balances(dana)).toEqual({
      checking: { balanceCents: 150_000, availableCents: 150_000 },
      savings: { balanceCents: 150_000, availableCents: 150_000 },
    });
    expect(await notices('Scheduled payment not sent yet')).toBe(1);
    expect(await notices('Scheduled payment sent')).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM notifications WHERE customer_id = $1 AND name = 'Scheduled payment sent' AND payment_id = $2", [
        dana.id,
        transferId,
      ]),
    ).toBe(1);
    expect((await db.query<{ status: string }>('SELECT status FROM scheduled_payments WHERE id = $1', [scheduleId]))[0]?.status).toBe('completed');
    expect((await checkLedger(db)).violations).toEqual([]);
  });
});
