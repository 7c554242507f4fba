import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import { buildTestApp, type TestApp } from './app.ts';
import { TestBrowser, lastMessageTo } from './client.ts';
import { onboardedCustomer, uniqueTestPhone } from './customers.ts';
import { seedVerifiedFundingSource } from '../modules/funding-sources/service.ts';
import { paymentSweepJobKind } from '../modules/payments/jobs.ts';

/** A signed-in customer with a checking and a savings account, for payment tests. */
export interface PayingCustomer {
  id: string;
  phone: string;
  browser: TestBrowser;
  checking: { id: string; number: string };
  savings: { id: string; number: string };
  /** A verified account at another bank to deposit from (docs/product.md section 6). */
  fundingSourceId: string;
}

export function paymentKit(context: () => { app: FastifyInstance; config: Config; db: Database }) {
  async function customer(options: { fundCents?: bigint; firstName?: string; lastName?: string } = {}): Promise<PayingCustomer> {
    const { app, config, db } = context();
    const phone = uniqueTestPhone();
    const created = await onboardedCustomer(
      { db, storage: app.services.storage, encryptionKey: config.secrets.encryptionKey },
      { fundCents: options.fundCents ?? 100_000n, phone, firstName: options.firstName, lastName: options.lastName },
    );
    const checking = created.accounts.find((account) => account.type === 'checking');
    const savings = created.accounts.find((account) => account.type === 'savings');
    if (!checking || !savings) throw new Error('the customer has no accounts');
    const browser = await new TestBrowser(app).signInAs(db, created.userId);
    const source = await seedVerifiedFundingSource(db, config.secrets.encryptionKey, config.secrets.sessionSecret, {
      customerId: created.userId,
      accountName: `${options.firstName ?? 'Demo'} ${options.lastName ?? 'Customer'}`,
      // Not ending in 0001 or 0002, which the rail simulator returns.
      accountNumber: '7788990055',
      routeNumber: '011000015',
      accountType: 'checking',
    });
    return { id: created.userId, phone, browser, checking, savings, fundingSourceId: source.id };
  }

  function pay(who: PayingCustomer, path: string, body: object, key: string = randomUUID(), headers: Record<string, string> = {}) {
    return who.browser.request({ method: 'POST', url: `/api/v1${path}`, payload: body, headers: { 'idempotency-key': key, ...headers } });
  }

  /** Answers the step-up the way the web does: code from the SMS, then the same request again. */
  async function payWithStepUp(who: PayingCustomer, path: string, body: object, key: string = randomUUID()) {
    const first = await pay(who, path, body, key);
    expect(first.statusCode, first.body).toBe(403);
    const challengeId = first.json<{ error: { code: string; challengeId: string } }>().error.challengeId;
    await verifyLatestCode(who, challengeId);
    return pay(who, path, body, key, { 'x-step-up': challengeId });
  }

  async function latestCode(who: PayingCustomer): Promise<string> {
    const message = await lastMessageTo(context().db, who.phone);
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    if (!code) throw new Error(`no code in: ${message?.text}`);
    return code;
  }

  async function verifyLatestCode(who: PayingCustomer, challengeId: string): Promise<void> {
    const verified = await who.browser.post(`/api/v1/step-up/${challengeId}`, { code: await latestCode(who) });
    expect(verified.statusCode, verified.body).toBe(200);
  }

  async function balances(who: PayingCustomer): Promise<Record<'checking' | 'savings', { balanceCents: number; availableCents: number }>> {
    const response = await who.browser.get('/api/v1/accounts');
    expect(response.statusCode).toBe(200);
    const accounts = response.json<{ type: 'checking' | 'savings'; balanceCents: number; availableCents: number }[]>();
    const pick = (type: 'checking' | 'savings') => {
      const account = accounts.find((item) => item.type === type);
      if (!account) throw new Error(`no ${type} account`);
      return { balanceCents: account.balanceCents, availableCents: account.availableCents };
    };
    return { checking: pick('checking'), savings: pick('savings') };
  }

  /** Asks for a payments sweep and runs the job queue until nothing is due: settlement on an instant rail. */
  async function runJobs(): Promise<void> {
    await context().app.services.jobs.enqueue({ kind: paymentSweepJobKind });
    for (let round = 0; round < 20; round += 1) if ((await context().app.services.jobs.runOnce()) === 0) return;
  }

  async function expectLedgerConsistent(): Promise<void> {
    const check = await checkLedger(context().db);
    expect(check.violations).toEqual([]);
  }

  return { customer, pay, payWithStepUp, latestCode, verifyLatestCode, balances, runJobs, expectLedgerConsistent };
}

export const validExternal = { routeNumber: '011000015', nameOfBank: 'First Example Bank', nameOfCountry: 'United States' };

/**
 * A payments suite's app and kit: the app is built on `database()` before the suite's tests (and
 * handed to `use`, which keeps what the tests read), and after them the ledger is checked and the
 * app closed. Call it inside the suite's describe block.
 */
export function paymentSuite(
  database: () => Database,
  use: (built: TestApp) => void,
  options: Parameters<typeof buildTestApp>[1] = {},
): ReturnType<typeof paymentKit> {
  let built: TestApp | undefined;
  const kit = paymentKit(() => {
    if (!built) throw new Error('The suite has no app yet: use the kit inside a test or hook');
    return { app: built.app, config: built.config, db: database() };
  });
  beforeAll(async () => {
    built = await buildTestApp(database(), options);
    use(built);
  });
  afterAll(async () => {
    if (!built) return;
    await kit.expectLedgerConsistent();
    await built.app.close();
  });
  return kit;
}
