import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { build } from './app.ts';
import type { Config } from './config.ts';
import { TestClock } from './db/clock.ts';
import { contactMessagesPerHourPerAddress } from './modules/contact/routes.ts';
import { LogCapture, testConfig } from './test/app.ts';
import { describeEachDatabase } from './test/databases.ts';
import { paymentKit, type PayingCustomer } from './test/payments.ts';
import { sweepRateLimitCounters } from './platform/rate-limit-store.ts';

/**
 * Several API processes on one database are one bank (docs/product.md section 6): each app built here
 * stands for a process, with its own memory, on the one database, so a limit counted in memory
 * would be counted once per app. See docs/decisions/042-rate-limits-in-the-database.md.
 */
const moneyLimitPerMinute = 20;

describeEachDatabase('rate limits shared by every process on one database', (database) => {
  const clock = new TestClock();
  let config: Config;
  let first: FastifyInstance;
  let second: FastifyInstance;
  /** Two more processes at the default MONEY_RATE_LIMIT_PER_MINUTE, for the burst. */
  let atDefault: FastifyInstance;
  let atDefaultPeer: FastifyInstance;
  const kit = paymentKit(() => ({ app: first, config, db: database() }));

  beforeAll(async () => {
    config = await testConfig({ RAIL_SPEED: 'instant', MONEY_RATE_LIMIT_PER_MINUTE: String(moneyLimitPerMinute) });
    // The same config (so the same secrets) and the same database: two processes of one bank.
    first = await build(config, { db: database(), logStream: new LogCapture(), clock });
    second = await build(config, { db: database(), logStream: new LogCapture(), clock });
    const defaults = await testConfig({ RAIL_SPEED: 'instant' });
    expect(defaults.moneyRateLimitPerMinute).toBe(120);
    atDefault = await build({ ...config, moneyRateLimitPerMinute: defaults.moneyRateLimitPerMinute }, { db: database(), logStream: new LogCapture(), clock });
    atDefaultPeer = await build(
      { ...config, moneyRateLimitPerMinute: defaults.moneyRateLimitPerMinute },
      { db: database(), logStream: new LogCapture(), clock },
    );
    await Promise.all([first.ready(), second.ready(), atDefault.ready(), atDefaultPeer.ready()]);
  });
  afterAll(async () => {
    await kit.expectLedgerConsistent();
    await Promise.all([first.close(), second.close(), atDefault.close(), atDefaultPeer.close()]);
  });

  const contactMessage = { name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 202 555 0101', subject: 'Savings', message: 'How do I open one?' };

  let nextAddress = 1;
  const freshAddress = () => `203.0.113.${nextAddress++}`;

  /** A one-cent own transfer sent through `app` with `who`'s session, from `remoteAddress`. */
  function ownTransfer(app: FastifyInstance, who: PayingCustomer, remoteAddress = who.browser.ip) {
    return app.inject({
      method: 'POST',
      url: '/api/v1/transfers',
      remoteAddress,
      cookies: who.browser.cookies,
      headers: { 'x-csrf-token': who.browser.cookies.csrf ?? '', 'idempotency-key': randomUUID() },
      payload: { kind: 'own', fromAccountId: who.checking.id, toAccountId: who.savings.id, amountCents: 1, message: 'Limit' },
    });
  }

  function deposit(app: FastifyInstance, who: PayingCustomer) {
    return app.inject({
      method: 'POST',
      url: '/api/v1/deposits',
      remoteAddress: who.browser.ip,
      cookies: who.browser.cookies,
      headers: { 'x-csrf-token': who.browser.cookies.csrf ?? '', 'idempotency-key': randomUUID() },
      payload: { accountId: who.checking.id, fundingSourceId: who.fundingSourceId, amountCents: 1, reason: 'Limit' },
    });
  }

  /**
   * Sends `who`'s whole minute of money requests, alternating between the two processes, each from
   * `address()` (the customer's own by default); each is taken.
   */
  async function spendMoneyAllowance(who: PayingCustomer, address: () => string = () => who.browser.ip) {
    for (let index = 0; index < moneyLimitPerMinute; index += 1) {
      const response = await ownTransfer(index % 2 === 0 ? first : second, who, address());
      expect(response.statusCode, response.body).toBe(201);
    }
  }

  function expectRateLimited(response: Awaited<ReturnType<typeof ownTransfer>>, windowSeconds: number) {
    expect(response.statusCode, response.body).toBe(429);
    expect(response.json().error.code).toBe('rate_limited');
    const retryAfterSeconds = Number(response.headers['retry-after']);
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);
  }

  it('counts the contact form of one address once, whichever process a message reaches', async () => {
    const address = freshAddress();
    const send = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/contact',
        remoteAddress: address,
        payload: contactMessage,
      });
    for (let index = 0; index < contactMessagesPerHourPerAddress; index += 1) {
      const response = await send(index % 2 === 0 ? first : second);
      expect(response.statusCode, response.body).toBe(201);
    }
    expectRateLimited(await send(first), 3_600);
    expectRateLimited(await send(second), 3_600);
    // Another address is not held back by this one.
    const other = await first.inject({ method: 'POST', url: '/api/v1/contact', remoteAddress: freshAddress(), payload: contactMessage });
    expect(other.statusCode, other.body).toBe(201);
  });

  it('accepts MONEY_RATE_LIMIT_PER_MINUTE money requests of one customer across both processes, then answers 429 with Retry-After', async () => {
    const dana = await kit.customer();
    await spendMoneyAllowance(dana);
    expectRateLimited(await ownTransfer(first, dana), 60);
    expectRateLimited(await ownTransfer(second, dana), 60);
  });

  it('makes the money routes one allowance per customer: transfers and deposits count together', async () => {
    const erin = await kit.customer();
    for (let index = 0; index < moneyLimitPerMinute / 2; index += 1) {
      const transfer = await ownTransfer(first, erin);
      expect(transfer.statusCode, transfer.body).toBe(201);
      const deposited = await deposit(second, erin);
      expect(deposited.statusCode, deposited.body).toBe(201);
    }
    expectRateLimited(await deposit(first, erin), 60);
    expectRateLimited(await ownTransfer(second, erin), 60);
  });

  it('gives two customers behind one address an allowance each', async () => {
    const office = freshAddress();
    const frank = await kit.customer();
    const grace = await kit.customer();
    await spendMoneyAllowance(frank, () => office);
    expectRateLimited(await ownTransfer(first, frank, office), 60);
    await spendMoneyAllowance(grace, () => office);
    expectRateLimited(await ownTransfer(second, grace, office), 60);
  });

  it("does not hold another customer back when one customer's allowance is spent, nor follow a customer who changes address", async () => {
    const heidi = await kit.customer();
    const ivan = await kit.customer();
    await spendMoneyAllowance(heidi, freshAddress);
    // A new address does not give Heidi a new allowance; Ivan, on any address, has his own.
    expectRateLimited(await ownTransfer(second, heidi, freshAddress()), 60);
    const ivanPays = await ownTransfer(second, ivan, heidi.browser.ip);
    expect(ivanPays.statusCode, ivanPays.body).toBe(201);
    expect(ivanPays.headers['x-ratelimit-remaining']).toBe(String(moneyLimitPerMinute - 1));
  });

  it('lets money through again once the window has run out, and sweeps the spent counters', async () => {
    const judy = await kit.customer();
    await spendMoneyAllowance(judy);
    expectRateLimited(await ownTransfer(first, judy), 60);

    clock.advance(59_000);
    expectRateLimited(await ownTransfer(second, judy), 1);
    clock.advance(1_000);
    const again = await ownTransfer(second, judy);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['x-ratelimit-remaining']).toBe(String(moneyLimitPerMinute - 1));
    expect(again.headers['x-ratelimit-reset']).toBe('60');

    const key = `money:${judy.id}money`;
    const counted = () => database().query('SELECT 1 FROM rate_limit_counters WHERE key = $1', [key]);
    expect(await counted()).toHaveLength(1);
    clock.advance(60_000);
    expect(await sweepRateLimitCounters(database(), clock)).toBeGreaterThanOrEqual(1);
    expect(await counted()).toHaveLength(0);
  });

  it('passes a burst of 20 concurrent money requests from one customer at the default (120), and counts every one of them', async () => {
    const kate = await kit.customer();
    const burst = await Promise.all(Array.from({ length: 20 }, (_, index) => ownTransfer(index % 2 === 0 ? atDefault : atDefaultPeer, kate)));
    for (const response of burst) expect(response.statusCode, response.body).toBe(201);
    const remaining = burst.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
    // Each request saw its own count: none was lost to a race between the processes.
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, index) => 100 + index));
  });
});
