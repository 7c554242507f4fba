import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import { createTransferBatcher } from '../../ledger/batcher.ts';
import { accountFrozenMessage } from '../../platform/account-freeze.ts';
import { addDays, calendarDayIn, isBusinessDay, nextBusinessDay } from '../../platform/business-calendar.ts';
import { createOutboxSmsSender } from '../../platform/messaging/sms-sender.ts';
import { describeEachDatabase, openAnotherHandle } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { createTestStaff } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';
import type { PaymentDependencies } from '../payments/service.ts';
import { cutoffInstant } from './occurrences.ts';
import { runScheduledPayments } from './run.ts';

/**
 * Issue 33 item 4: the job pays each due occurrence exactly once through the one payment path;
 * insufficient funds are tried once more the next business day, then skipped; a freeze fails an
 * occurrence; the step-up was given when the schedule was made; a crash between the ledger and the
 * outcome, then a rerun, pays once; end of day pays what is due up to each day it runs.
 */
const timeZone = 'America/New_York';

class SetClock implements Clock {
  #at = new Date();
  now(): Date {
    return new Date(this.#at.getTime());
  }
  set(at: Date): void {
    this.#at = at;
  }
}

function onOrBeforeBusinessDay(day: string): string {
  let date = day;
  while (!isBusinessDay(date)) date = addDays(date, -1);
  return date;
}

/** The first business day after the real today: every schedule below starts on it. */
const firstDay = nextBusinessDay(calendarDayIn(timeZone, new Date()));
/** The second weekly occurrence of a series starting on `firstDay`. */
const secondDay = onOrBeforeBusinessDay(addDays(firstDay, 7));
/** A run of `day` once its cut-off has passed. */
const afterCutoffOf = (day: string) => ({ through: day, now: cutoffInstant(day, '17:01', timeZone) });

describeEachDatabase('scheduled payments: the job', (database) => {
  const clock = new SetClock();
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { dependencies: { clock } });
  beforeEach(() => clock.set(cutoffInstant(firstDay, '10:00', timeZone)));

  let dependencies: PaymentDependencies | undefined;
  /** What the job is given: the payment path on the suite's database. */
  const deps = (): PaymentDependencies =>
    (dependencies ??= {
      db: database(),
      config,
      ledger: createTransferBatcher(database()),
      sms: createOutboxSmsSender(database()),
      stepUpMethods: {},
      liveEvents: app.services.liveEvents,
    });

  const schedule = async (who: PayingCustomer, body: object, headers: Record<string, string> = {}, key = randomUUID()) =>
    who.browser.request({ method: 'POST', url: '/api/v1/scheduled-payments', payload: body, headers: { 'idempotency-key': key, ...headers } });
  const made = async (who: PayingCustomer, body: object): Promise<string> => {
    const response = await schedule(who, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ schedule: { id: string } }>().schedule.id;
  };
  const occurrences = (scheduleId: string) =>
    database().query<{ due_date: string; status: string; attempts: number; retry_date: string | null; transfer_id: string | null; reason: string | null }>(
      `SELECT due_date::text AS due_date, status, attempts, retry_date::text AS retry_date, transfer_id, reason
         FROM scheduled_payment_occurrences WHERE schedule_id = $1 ORDER BY due_date`,
      [scheduleId],
    );
  const notices = async (who: PayingCustomer) =>
    (
      await database().query<{ text: string }>(`SELECT text FROM notifications WHERE customer_id = $1 AND kind = 'scheduled_payment' ORDER BY created_at, id`, [
        who.id,
      ])
    ).map((row) => row.text);
  const scheduledPaymentsOf = async (who: PayingCustomer, message: string) =>
    (await database().query<{ id: string }>(`SELECT id FROM payments WHERE customer_id = $1 AND message = $2 AND status <> 'failed'`, [who.id, message])).map(
      (row) => row.id,
    );

  it('insufficient funds: tried again the next business day, then skipped, the customer told each time; the next is paid when money is back', async () => {
    const dana = await kit.customer({ fundCents: 100_000n });
    const friend = await kit.customer({ fundCents: 500_000n });
    const id = await made(dana, { payment: ownTransfer(dana.checking.id, dana.savings.id, 150_000, 'Rent pot'), startDate: firstDay, frequency: 'weekly' });

    const retryDay = nextBusinessDay(firstDay);
    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ retrying: 1, paid: 0 });
    expect(await occurrences(id)).toEqual([
      { due_date: firstDay, status: 'scheduled', attempts: 1, retry_date: retryDay, transfer_id: null, reason: expect.stringContaining('Insufficient funds') },
    ]);
    expect((await notices(dana))[0]).toContain('add money before then or this payment will be skipped');
    const upcoming = (await dana.browser.get('/api/v1/scheduled-payments/upcoming')).json().items;
    expect(upcoming[0]).toMatchObject({ scheduleId: id, date: retryDay, dueDate: firstDay, retry: true, amountCents: 150_000 });

    // Running the same day again changes nothing: the retry is the next business day's.
    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toEqual({ paid: 0, retrying: 0, skipped: 0, failed: 0 });
    expect(await runScheduledPayments(deps(), afterCutoffOf(retryDay))).toMatchObject({ skipped: 1 });
    expect((await occurrences(id))[0]).toMatchObject({ status: 'skipped', attempts: 2, transfer_id: null });
    expect(await notices(dana)).toHaveLength(2);
    expect((await notices(dana))[1]).toContain('was skipped');
    expect((await kit.balances(dana)).checking.availableCents).toBe(100_000);

    // Money is back: the series goes on.
    const paidIn = await kit.payCustomer(friend, dana, { accountName: 'Demo Customer', amountCents: 100_000, message: 'Top up' });
    expect(paidIn.statusCode, paidIn.body).toBe(201);
    expect(await runScheduledPayments(deps(), afterCutoffOf(secondDay))).toMatchObject({ paid: 1 });
    expect((await occurrences(id))[1]).toMatchObject({ due_date: addDays(firstDay, 7), status: 'paid', attempts: 1 });
    expect((await kit.balances(dana)).checking.availableCents).toBe(50_000);
    expect((await notices(dana))[2]).toBe('Your scheduled payment of $1,500.00 to Standard Savings was sent.');
    const detail = (await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json();
    expect(detail.occurrences.slice(0, 2).map((occurrence: { status: string }) => occurrence.status)).toEqual(['skipped', 'paid']);
  });

  it('a frozen customer when an occurrence falls due: failed with the reason, notified, never retried', async () => {
    const dana = await kit.customer();
    const id = await made(dana, { payment: ownTransfer(dana.checking.id, dana.savings.id, 2_000, 'Frozen pot'), startDate: firstDay, frequency: 'once' });
    const staff = await createTestStaff(database(), config, 'compliance');
    await database().query('INSERT INTO customer_freezes (customer_id, frozen_by, reason) VALUES ($1, $2, $3)', [dana.id, staff.id, 'Test freeze']);
    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ failed: 1 });
    expect(await occurrences(id)).toEqual([
      { due_date: firstDay, status: 'failed', attempts: 1, retry_date: null, transfer_id: null, reason: accountFrozenMessage },
    ]);
    expect(await notices(dana)).toEqual([`Your scheduled payment of $20.00 to Standard Savings was not sent: ${accountFrozenMessage}`]);
    expect(await runScheduledPayments(deps(), afterCutoffOf(nextBusinessDay(firstDay)))).toMatchObject({ failed: 0 });
    expect((await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json().schedule.status).toBe('completed');
    expect(await scheduledPaymentsOf(dana, 'Frozen pot')).toEqual([]);
  });

  it('asks for the step-up when the schedule is made for a new payee, and never when it runs', async () => {
    const dana = await kit.customer();
    const payee = await kit.customer();
    const body = {
      payment: {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: payee.checking.number,
        accountName: 'Demo Customer',
        amountCents: 3_000,
        message: 'Lunch',
      },
      startDate: firstDay,
      frequency: 'once',
    };
    const key = randomUUID();
    const asked = await schedule(dana, body, {}, key);
    expect(asked.statusCode).toBe(403);
    expect(asked.json().error.code).toBe('step_up_required');
    const challengeId = asked.json().error.challengeId;
    await kit.verifyLatestCode(dana, challengeId);
    const created = await schedule(dana, body, { 'x-step-up': challengeId }, key);
    expect(created.statusCode, created.body).toBe(201);
    const [challenge] = await database().query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM step_up_challenges WHERE id = $1', [challengeId]);
    expect(challenge?.used).toBe(true);
    const challengesBefore = await database().query('SELECT id FROM step_up_challenges WHERE customer_id = $1', [dana.id]);

    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ paid: 1 });
    expect(await database().query('SELECT id FROM step_up_challenges WHERE customer_id = $1', [dana.id])).toHaveLength(challengesBefore.length);
    expect(await scheduledPaymentsOf(dana, 'Lunch')).toHaveLength(1);
    expect((await kit.balances(payee)).checking.availableCents).toBe(103_000);
  });

  it("the recurring job pays today's occurrence once its cut-off has passed, and not before", async () => {
    const dana = await kit.customer();
    const id = await made(dana, { payment: ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'Job pot'), startDate: firstDay, frequency: 'once' });
    const runJobs = async () => {
      for (let round = 0; round < 20; round += 1) if ((await app.services.jobs.runOnce()) === 0) return;
    };
    clock.set(cutoffInstant(firstDay, '16:59', timeZone));
    await runJobs();
    expect(await scheduledPaymentsOf(dana, 'Job pot')).toEqual([]);
    clock.set(cutoffInstant(firstDay, '17:05', timeZone));
    await runJobs();
    expect(await scheduledPaymentsOf(dana, 'Job pot')).toHaveLength(1);
    expect((await occurrences(id))[0]).toMatchObject({ status: 'paid' });
    expect((await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json().schedule).toMatchObject({ status: 'completed', next: [], upcoming: [] });
  });

  it('review rules apply: a payment over the new-payee daily amount is held for review, and counts as made', async () => {
    const dana = await kit.customer({ fundCents: 500_000n });
    const payee = await kit.customer();
    const body = {
      payment: {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: payee.checking.number,
        accountName: 'Demo Customer',
        amountCents: 350_000,
        message: 'Big one',
      },
      startDate: firstDay,
      frequency: 'once',
    };
    const key = randomUUID();
    const challengeId = (await schedule(dana, body, {}, key)).json().error.challengeId;
    await kit.verifyLatestCode(dana, challengeId);
    const id = (await schedule(dana, body, { 'x-step-up': challengeId }, key)).json().schedule.id;
    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ paid: 1 });
    const [held] = await database().query<{ id: string; status: string }>(`SELECT id, status FROM payments WHERE customer_id = $1 AND message = 'Big one'`, [
      dana.id,
    ]);
    expect(held?.status).toBe('in_review');
    expect((await occurrences(id))[0]).toMatchObject({ status: 'paid', transfer_id: held?.id });
    // The payments module says it is held; nothing says it was sent.
    expect(await notices(dana)).toEqual([]);
    const [told] = await database().query<{ n: number }>(`SELECT count(*)::integer AS n FROM notifications WHERE customer_id = $1 AND kind = 'held'`, [
      dana.id,
    ]);
    expect(told?.n).toBe(1);
  });

  it('a monthly bill: its line names the biller and the account ending; once the payee is deleted the next one fails', async () => {
    const dana = await kit.customer();
    const billerId = randomUUID();
    await database().query(
      `INSERT INTO billers (id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number)
       VALUES ($1, 'City Water', 'water', '\\d{10}', '1234567890', 'ach', '011000015', '4002008100')`,
      [billerId],
    );
    const payee = await dana.browser.post('/api/v1/bill-payees', { billerId, accountNumber: '5550004821', nickname: 'Water' });
    expect(payee.statusCode, payee.body).toBe(201);
    const body = {
      payment: { kind: 'bill', fromAccountId: dana.checking.id, billPayeeId: payee.json().payee.id, amountCents: 6_000 },
      startDate: firstDay,
      frequency: 'monthly',
    };
    const key = randomUUID();
    const challengeId = (await schedule(dana, body, {}, key)).json().error.challengeId;
    await kit.verifyLatestCode(dana, challengeId);
    const created = await schedule(dana, body, { 'x-step-up': challengeId }, key);
    expect(created.statusCode, created.body).toBe(201);
    const { id, description, upcoming } = created.json().schedule;
    expect(description).toBe('Bill payment to City Water, account ending 4821');
    expect(upcoming[0]).toMatchObject({ date: firstDay, arrivesBy: nextBusinessDay(firstDay) });

    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ paid: 1 });
    const [made] = await database().query<{ kind: string; status: string }>(`SELECT kind, status FROM payments WHERE customer_id = $1 AND kind = 'bill'`, [
      dana.id,
    ]);
    expect(made).toEqual({ kind: 'bill', status: 'pending' });

    expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/bill-payees/${payee.json().payee.id}` })).statusCode).toBe(204);
    const nextMonth = (await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json().schedule.next[0];
    expect(await runScheduledPayments(deps(), afterCutoffOf(nextMonth))).toMatchObject({ failed: 1 });
    expect((await notices(dana)).at(-1)).toContain('Your scheduled payment of $60.00 to City Water was not sent');
  });

  it('two runs at once, from two processes, pay each occurrence once and tell the customer once', async () => {
    const dana = await kit.customer();
    const id = await made(dana, { payment: ownTransfer(dana.checking.id, dana.savings.id, 700, 'Race pot'), startDate: firstDay, frequency: 'once' });
    const other = await openAnotherHandle(database());
    try {
      const elsewhere: PaymentDependencies = { ...deps(), db: other.db, ledger: createTransferBatcher(other.db) };
      const results = await Promise.all([runScheduledPayments(deps(), afterCutoffOf(firstDay)), runScheduledPayments(elsewhere, afterCutoffOf(firstDay))]);
      expect(results.map((result) => result.paid).sort()).toEqual([0, 1]);
    } finally {
      await other.close();
    }
    expect(await scheduledPaymentsOf(dana, 'Race pot')).toHaveLength(1);
    expect((await occurrences(id))[0]).toMatchObject({ status: 'paid', attempts: 1 });
    expect(await notices(dana)).toHaveLength(1);
  });

  it('a run killed between the ledger and the outcome, then run again, pays once', async () => {
    const dana = await kit.customer();
    const id = await made(dana, { payment: ownTransfer(dana.checking.id, dana.savings.id, 4_000, 'Crash pot'), startDate: firstDay, frequency: 'once' });
    // The process "dies" when it records the payment: the payment has committed, the occurrence not.
    await database().query(`CREATE FUNCTION kill_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'paid' THEN RAISE EXCEPTION 'killed between the ledger and the outcome'; END IF;
        RETURN NEW;
      END $$`);
    await database().query('CREATE TRIGGER kill_once BEFORE UPDATE ON scheduled_payment_occurrences FOR EACH ROW EXECUTE FUNCTION kill_once()');
    await expect(runScheduledPayments(deps(), afterCutoffOf(firstDay))).rejects.toThrow(/killed between the ledger and the outcome/);
    const paid = await scheduledPaymentsOf(dana, 'Crash pot');
    expect(paid).toHaveLength(1);
    expect((await occurrences(id))[0]).toMatchObject({ status: 'scheduled', attempts: 0 });

    await database().query('DROP TRIGGER kill_once ON scheduled_payment_occurrences');
    await database().query('DROP FUNCTION kill_once()');
    expect(await runScheduledPayments(deps(), afterCutoffOf(firstDay))).toMatchObject({ paid: 1 });
    expect(await scheduledPaymentsOf(dana, 'Crash pot')).toEqual(paid);
    expect((await occurrences(id))[0]).toMatchObject({ status: 'paid', transfer_id: paid[0] });
    const [ledger] = await database().query<{ n: number }>('SELECT count(*)::integer AS n FROM ledger_transfers WHERE id = $1', [paid[0]]);
    expect(ledger?.n).toBe(1);
    expect((await kit.balances(dana)).savings.availableCents).toBe(4_000);
    expect(await notices(dana)).toEqual(['Your scheduled payment of $40.00 to Standard Savings was sent.']);
  });
});

describeEachDatabase('scheduled payments: end of day', (database) => {
  const clock = new SetClock();
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { dependencies: { clock } });
  const endOfDay = (through: string) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'end-of-day', ['--through', through]);

  it('end of day across two due dates pays two; running it again pays nothing more', async () => {
    clock.set(cutoffInstant(firstDay, '10:00', timeZone));
    const dana = await kit.customer();
    const response = await dana.browser.request({
      method: 'POST',
      url: '/api/v1/scheduled-payments',
      headers: { 'idempotency-key': randomUUID() },
      payload: { payment: ownTransfer(dana.checking.id, dana.savings.id, 1_500, 'Weekly pot'), startDate: firstDay, frequency: 'weekly' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().schedule.id;

    const first = await endOfDay(secondDay);
    expect(first.exitCode, first.output).toBe(0);
    expect(JSON.parse(first.output).days).toContain(secondDay);
    const paid = await database().query<{ id: string }>(`SELECT id FROM payments WHERE customer_id = $1 AND message = 'Weekly pot'`, [dana.id]);
    expect(paid).toHaveLength(2);
    expect((await kit.balances(dana)).savings.availableCents).toBe(3_000);

    const again = await endOfDay(secondDay);
    expect(JSON.parse(again.output).days).toEqual([]);
    expect(await database().query(`SELECT id FROM payments WHERE customer_id = $1 AND message = 'Weekly pot'`, [dana.id])).toHaveLength(2);
    const detail = (await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json();
    const done = detail.occurrences.filter((occurrence: { status: string }) => occurrence.status === 'paid');
    expect(done.map((occurrence: { date: string }) => occurrence.date)).toEqual([firstDay, secondDay]);
    expect(done.map((occurrence: { transferId: string }) => occurrence.transferId).sort()).toEqual(paid.map((row) => row.id).sort());
  });
});
