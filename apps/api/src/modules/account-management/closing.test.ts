import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { closeRequest, ledgerBalanceCents, openFromChecking, openRequest, productIds } from '../../test/accounts.ts';
import { cardSuite } from '../../test/cards.ts';
import type { TestBrowser } from '../../test/client.ts';
import { TestClock } from '../../db/clock.ts';
import { buildTestApp } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit } from '../../test/payments.ts';
import { applyForLoan } from '../../test/loans.ts';
import { staffBrowser } from '../../test/staff.ts';

/** A day's exact interest in the units interest_accruals keeps: 1/1,335,900,000 of a cent. */
const unitsPerCent = 1_335_900_000n;

describeEachDatabase('closing an account, and staff opening, closing and changing accounts', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let operations: TestBrowser;
  let support: TestBrowser;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { CARD_AUTO_APPROVE_SECONDS: 'off' } });

  beforeAll(async () => {
    operations = (await staffBrowser(app, database(), config, 'operations')).browser;
    support = (await staffBrowser(app, database(), config, 'support')).browser;
  });

  async function accountStatus(accountId: string) {
    const [row] = await database().query<{ status: string; closed: boolean }>(
      'SELECT status, closed_at IS NOT NULL AS closed FROM customer_accounts WHERE id = $1',
      [accountId],
    );
    return row;
  }

  async function expectInUse(response: Awaited<ReturnType<typeof closeRequest>>, words: RegExp): Promise<void> {
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'account_in_use', message: expect.stringMatching(words) });
  }

  it('pays the interest accrued and not yet paid, moves the whole balance to the account chosen, and closes the account', async () => {
    const dana = await kit.customer({ fundCents: 300_000n, savingsCents: 0 });
    const savings = await openFromChecking(dana, productIds.standardSavings, 60_000);
    // Three past days of accrual: 123 whole cents and a fraction the close does not pay.
    const days = [unitsPerCent * 40n, unitsPerCent * 41n, unitsPerCent * 42n + 777n];
    for (const [index, units] of days.entries()) {
      await database().query(`INSERT INTO interest_accruals (account_id, day, balance_cents, rate_bps, accrued_units) VALUES ($1, $2, 60000, 150, $3)`, [
        savings.id,
        `2026-01-0${index + 1}`,
        units.toString(),
      ]);
    }
    const checkingBefore = await ledgerBalanceCents(database(), dana.checking.id);

    const response = await closeRequest(dana, savings.id, dana.checking.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ account: ManagedAccount }>().account).toMatchObject({
      id: savings.id,
      status: 'closed',
      balanceCents: 0,
      closedAt: expect.any(String),
    });
    expect(await accountStatus(savings.id)).toEqual({ status: 'closed', closed: true });
    expect(await ledgerBalanceCents(database(), savings.id)).toBe(0n);
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(checkingBefore + 60_000n + 123n);
    const lines = await database().query<{ kind: string; amount_cents: bigint; to_account_id: string }>(
      'SELECT kind, amount_cents, to_account_id FROM payments WHERE (to_account_id = $1 OR from_account_id = $1) AND kind <> $2 ORDER BY created_at, kind',
      [savings.id, 'deposit'],
    );
    expect(lines).toEqual([
      { kind: 'own', amount_cents: 60_000n, to_account_id: savings.id },
      { kind: 'interest', amount_cents: 123n, to_account_id: savings.id },
      { kind: 'own', amount_cents: 60_123n, to_account_id: dana.checking.id },
    ]);
    expect((await dana.browser.get('/api/v1/accounts')).body).not.toContain(savings.id);
    const again = await closeRequest(dana, savings.id, dana.checking.id);
    expect(again.statusCode).toBe(404);
  });

  it("answers closing into another customer's account, or closing another customer's account, as not found", async () => {
    const dana = await kit.customer();
    const erin = await kit.customer();
    const intoErin = await closeRequest(dana, dana.savings.id, erin.checking.id);
    expect(intoErin.statusCode).toBe(404);
    expect(intoErin.json().error.code).toBe('not_found');
    const erinsOwn = await closeRequest(dana, erin.savings.id, dana.checking.id);
    expect(erinsOwn.statusCode).toBe(404);
    expect((await accountStatus(dana.savings.id))?.status).toBe('active');
    expect((await accountStatus(erin.savings.id))?.status).toBe('active');
  });

  it('refuses to close an account with a deposit into it still pending', async () => {
    const dana = await kit.customer();
    const deposit = await kit.pay(dana, '/deposits', {
      accountId: dana.savings.id,
      fundingSourceId: dana.fundingSourceId,
      amountCents: 10_000,
      reason: 'Top up',
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    await expectInUse(await closeRequest(dana, dana.savings.id, dana.checking.id), /a deposit into it is still pending/);
    expect((await accountStatus(dana.savings.id))?.status).toBe('active');
  });

  it("refuses to close an account with a payment held for review, and the customer's last checking account", async () => {
    const dana = await kit.customer({ fundCents: 2_000_000n, savingsCents: 0 });
    const erin = await kit.customer({ firstName: 'Erin', lastName: 'Example' });
    const held = await kit.payWithStepUp(dana, '/transfers', {
      kind: 'internal',
      fromAccountId: dana.checking.id,
      toAccountNumber: erin.checking.number,
      accountName: 'Erin Example',
      amountCents: 1_000_000,
      message: 'Deposit on a car',
    });
    expect(held.json().transfer.status).toBe('in_review');
    await openFromChecking(dana, productIds.goldChecking, 0);
    await expectInUse(await closeRequest(dana, dana.checking.id, dana.savings.id), /held for review/);
    await expectInUse(await closeRequest(erin, erin.checking.id, erin.savings.id), /held for review.*last checking account/);
  });

  it('refuses to close an account a card draws on, or a loan pays into', async () => {
    const dana = await kit.customer();
    await openFromChecking(dana, productIds.goldChecking, 0);
    await kit.activeCard(dana);
    await expectInUse(await closeRequest(dana, dana.checking.id, dana.savings.id), /a card draws on it/);

    const erin = await kit.customer();
    await openFromChecking(erin, productIds.goldChecking, 0);
    const loan = await applyForLoan(erin.browser);
    expect(loan.statusCode, loan.body).toBe(201);
    await expectInUse(await closeRequest(erin, erin.checking.id, erin.savings.id), /a loan pays into or out of it/);
    expect((await accountStatus(erin.checking.id))?.status).toBe('active');
  });

  it('refuses to close an account a scheduled payment is set up from or to, until the schedule is cancelled', async () => {
    const dana = await kit.customer({ fundCents: 300_000n, savingsCents: 0 });
    const savings = await openFromChecking(dana, productIds.standardSavings, 60_000);
    const [today] = await database().query<{ day: string }>('SELECT (now() AT TIME ZONE $1)::date::text AS day', [config.bankTimeZone]);
    const made = await dana.browser.request({
      method: 'POST',
      url: '/api/v1/scheduled-payments',
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        payment: { kind: 'own', fromAccountId: dana.checking.id, toAccountId: savings.id, amountCents: 1_000, message: 'Save' },
        startDate: today!.day,
        frequency: 'monthly',
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    // To the savings account (the body's toAccountId) and from checking: both are in use.
    await expectInUse(await closeRequest(dana, savings.id, dana.checking.id), /a scheduled payment is set up from or to it/);
    const cancelled = await dana.browser.request({ method: 'DELETE', url: `/api/v1/scheduled-payments/${made.json().schedule.id}` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const closed = await closeRequest(dana, savings.id, dana.checking.id);
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('refuses to close an account while a dispute about one of its payments is open (its credit lands there)', async () => {
    const dana = await kit.customer({ fundCents: 300_000n, savingsCents: 0 });
    const erin = await kit.customer();
    const savings = await openFromChecking(dana, productIds.standardSavings, 60_000);
    const paid = await kit.payWithStepUp(dana, '/transfers', {
      kind: 'internal',
      fromAccountId: savings.id,
      toAccountNumber: erin.checking.number,
      accountName: 'Demo Customer',
      amountCents: 2_500,
      message: 'Tickets',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const reported = await dana.browser.request({
      method: 'POST',
      url: '/api/v1/disputes',
      payload: { transferId: paid.json().transfer.id, reason: 'not_received', description: 'The tickets never arrived, and the seller stopped answering.' },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    await expectInUse(await closeRequest(dana, savings.id, dana.checking.id), /a problem you reported with a payment of it is still open/);
    const withdrawn = await dana.browser.request({ method: 'POST', url: `/api/v1/disputes/${reported.json().dispute.id}/withdraw` });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await closeRequest(dana, savings.id, dana.checking.id)).statusCode).toBe(200);
  });

  it('operations staff open an account for a customer with a reason, close one and change a tier, each audited', async () => {
    const dana = await kit.customer({ fundCents: 100_000n, savingsCents: 0 });
    const opened = await operations.post(`/api/v1/staff/customers/${dana.id}/accounts`, {
      productId: productIds.standardSavings,
      fromAccountId: dana.checking.id,
      openingDepositCents: 50_000,
      disclosureGiven: true,
      reason: 'Customer visited the branch',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const account = opened.json<{ account: ManagedAccount }>().account;
    expect(await ledgerBalanceCents(database(), account.id)).toBe(50_000n);

    const changed = await operations.put(`/api/v1/staff/accounts/${dana.checking.id}/product`, {
      productId: productIds.platinumChecking,
      reason: 'Asked by phone',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().account.name).toBe('Platinum Checking');

    const closed = await operations.post(`/api/v1/staff/accounts/${account.id}/close`, { toAccountId: dana.checking.id, reason: 'Customer asked in writing' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().account.status).toBe('closed');
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(100_000n);

    const audits = await database().query<{ action: string; actor_type: string; reason: string }>(
      `SELECT action, actor_type, details->>'reason' AS reason FROM audit_log WHERE subject = ANY($1::text[]) AND action LIKE 'account.%' ORDER BY id`,
      [[account.id, dana.checking.id]],
    );
    expect(audits).toEqual([
      { action: 'account.opened', actor_type: 'staff', reason: 'Customer visited the branch' },
      { action: 'account.product_changed', actor_type: 'staff', reason: 'Asked by phone' },
      { action: 'account.closed', actor_type: 'staff', reason: 'Customer asked in writing' },
    ]);
  });

  it('refuses staff without accounts.manage (support), and a staff opening without the disclosure given or a reason', async () => {
    const dana = await kit.customer();
    const body = { productId: productIds.goldChecking, openingDepositCents: 0, disclosureGiven: true, reason: 'Customer visited the branch' };
    expect((await support.post(`/api/v1/staff/customers/${dana.id}/accounts`, body)).statusCode).toBe(403);
    expect((await support.post(`/api/v1/staff/accounts/${dana.savings.id}/close`, { toAccountId: dana.checking.id, reason: 'Asked' })).statusCode).toBe(403);
    expect((await support.put(`/api/v1/staff/accounts/${dana.checking.id}/product`, { productId: productIds.goldChecking, reason: 'Asked' })).statusCode).toBe(
      403,
    );
    expect((await accountStatus(dana.savings.id))?.status).toBe('active');

    const noDisclosure = await operations.post(`/api/v1/staff/customers/${dana.id}/accounts`, { ...body, disclosureGiven: false });
    expect(noDisclosure.statusCode).toBe(400);
    expect(noDisclosure.json().error.fields.disclosureGiven).toBeDefined();
    const noReason = await operations.post(`/api/v1/staff/customers/${dana.id}/accounts`, { ...body, reason: 'no' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBeDefined();
    const unknown = await operations.post(`/api/v1/staff/customers/${randomUUID()}/accounts`, body);
    expect(unknown.statusCode).toBe(404);
  });

  it('leaves the Idempotency-Key free after an opening refused for want of money: the same request opens the account once the money is there', async () => {
    const dana = await kit.customer({ fundCents: 200_000n, savingsCents: 100_000 });
    const key = randomUUID();
    const body = { productId: productIds.standardSavings, fromAccountId: dana.checking.id, openingDepositCents: 150_000, acceptDisclosure: true };
    const refused = await openRequest(dana, body, key);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('insufficient_funds');
    const topUp = await kit.pay(dana, '/transfers', {
      kind: 'own',
      fromAccountId: dana.savings.id,
      toAccountId: dana.checking.id,
      amountCents: 60_000,
      message: 'Top up',
    });
    expect(topUp.statusCode, topUp.body).toBe(201);
    const opened = await openRequest(dana, body, key);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(await ledgerBalanceCents(database(), opened.json<{ account: ManagedAccount }>().account.id)).toBe(150_000n);
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(10_000n);
  });
});

describeEachDatabase('closing an account between two runs of end of day', (database) => {
  it('accrues the days since the last end of day before it pays the interest, so none of them is lost', async () => {
    const clock = new TestClock();
    const { app, config } = await buildTestApp(database(), { dependencies: { clock } });
    const kit = paymentKit(() => ({ app, config, db: database() }));
    const dana = await kit.customer({ fundCents: 1_100_000n, savingsCents: 0 });
    const savings = await openFromChecking(dana, productIds.standardSavings, 1_000_000);
    // Three days pass and no end of day runs (a weekend, a holiday, or the job stopped): today, tomorrow and the day after are the bank's to accrue.
    clock.advance(3 * 86_400_000);
    const checkingBefore = await ledgerBalanceCents(database(), dana.checking.id);

    const closed = await closeRequest(dana, savings.id, dana.checking.id);
    expect(closed.statusCode, closed.body).toBe(200);
    const accrued = await database().query<{ day: string; balance_cents: bigint; rate_bps: number }>(
      'SELECT day::text AS day, balance_cents, rate_bps FROM interest_accruals WHERE account_id = $1 ORDER BY day',
      [savings.id],
    );
    expect(accrued).toHaveLength(3);
    expect(accrued.every((day) => day.balance_cents === 1_000_000n && day.rate_bps === 150)).toBe(true);
    // 1.50% on $10,000.00 for three days of a 365-day year: 1,000,000 x 150 x 3 / (10,000 x 365) = 123.29 cents, paid as 123.
    const [interest] = await database().query<{ amount_cents: bigint }>("SELECT amount_cents FROM payments WHERE kind = 'interest' AND to_account_id = $1", [
      savings.id,
    ]);
    expect(interest?.amount_cents).toBe(123n);
    expect(await ledgerBalanceCents(database(), dana.checking.id)).toBe(checkingBefore + 1_000_000n + 123n);
    await app.close();
  });
});
