import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Database } from '../db/database.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import type { TestApp } from './app.ts';
import { TestBrowser, lastMessageTo } from './client.ts';
import { onboardedCustomer, uniqueTestPhone } from './customers.ts';
import { seedVerifiedFundingSource } from '../modules/funding-sources/service.ts';
import { paymentSweepJobKind } from '../modules/payments/jobs.ts';
import { testAppSuite, withLedgerChecked, type SuiteContext, type SuiteOptions } from './suite.ts';

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

export interface CustomerOptions {
  /** What the customer's checking is opened with, in cents (default $1,000.00). */
  fundCents?: bigint;
  /** How much of `fundCents` is then moved to savings by an own transfer (default none). */
  savingsCents?: number;
  firstName?: string;
  lastName?: string;
}

export function paymentKit(context: () => SuiteContext) {
  /**
   * The suite's typed account fixture (decision 068): a new customer, onboarded and signed in, whose
   * checking is funded with `fundCents` (default $1,000.00), of which `savingsCents` (default none)
   * is then moved to savings; with their account ids and numbers and a verified funding source.
   */
  async function customer(options: CustomerOptions = {}): Promise<PayingCustomer> {
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
    // Not ending in 0001 or 0002, which the rail simulator returns.
    const fundingSourceId = await verifiedSource(created.userId, '7788990055', `${options.firstName ?? 'Demo'} ${options.lastName ?? 'Customer'}`);
    const opened = { id: created.userId, phone, browser, checking, savings, fundingSourceId };
    if (options.savingsCents) {
      const moved = await pay(opened, '/transfers', ownTransfer(checking.id, savings.id, options.savingsCents, 'Savings'));
      expect(moved.statusCode, moved.body).toBe(201);
    }
    return opened;
  }

  /** A verified checking account at another bank (route 011000015) of the customer `customerId`: its id. */
  async function verifiedSource(customerId: string, accountNumber: string, accountName: string, routeNumber = '011000015'): Promise<string> {
    const { config, db } = context();
    const source = await seedVerifiedFundingSource(db, config.secrets.encryptionKey, config.secrets.sessionSecret, {
      customerId,
      accountName,
      accountNumber,
      routeNumber,
      accountType: 'checking',
    });
    return source.id;
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

  /** Pays another customer of the bank from checking to their checking (kind `internal`), after the step-up. */
  function payCustomer(from: PayingCustomer, to: PayingCustomer, payment: { accountName: string; amountCents: number; message: string }, key?: string) {
    return payWithStepUp(from, '/transfers', { kind: 'internal', fromAccountId: from.checking.id, toAccountNumber: to.checking.number, ...payment }, key);
  }

  /** Pays a card (kind `card`) from checking, after the step-up. */
  function payCard(from: PayingCustomer, payment: { cardNumber: string; accountName: string; amountCents: number; message: string }, key?: string) {
    return payWithStepUp(from, '/transfers', { kind: 'card', fromAccountId: from.checking.id, ...payment }, key);
  }

  /** Pays an account at another bank (kind `external`, at `validExternal`'s bank) from checking, after the step-up. */
  function payOtherBank(from: PayingCustomer, payment: { toAccountNumber: string; accountName: string; amountCents: number; message: string }, key?: string) {
    return payWithStepUp(from, '/transfers', { kind: 'external', fromAccountId: from.checking.id, ...payment, ...validExternal }, key);
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

  return {
    customer,
    verifiedSource,
    pay,
    payWithStepUp,
    payCustomer,
    payCard,
    payOtherBank,
    latestCode,
    verifyLatestCode,
    balances,
    runJobs,
    expectLedgerConsistent,
  };
}

/** The body of a transfer between two accounts of one customer (kind `own`). */
export function ownTransfer(fromAccountId: string, toAccountId: string, amountCents: number, message: string) {
  return { kind: 'own' as const, fromAccountId, toAccountId, amountCents, message };
}

/** An account at another bank, typed in full as the withdrawal form takes it (decision 060). */
export const typedBankAccount = {
  country: 'United States',
  nameOfBank: 'First Example Bank',
  accountName: 'Dana Demo',
  accountNumber: '123123123',
  stateName: 'Ohio',
  bankAddress: '1 Main Street, Columbus',
  routeNumber: '011000015',
};

/** The body of a withdrawal of `amountCents` from `fromAccountId` to `typedBankAccount`. */
export function withdrawalTo(fromAccountId: string, amountCents: number) {
  return { fromAccountId, amountCents, ...typedBankAccount };
}

/** A payee at another bank, as the beneficiaries form saves one. */
export const otherBankPayee = {
  bankName: 'First Example Bank',
  accountName: 'Ada Lovelace',
  accountNumber: '987654321',
  nameOfCountry: 'United States',
  routeNumber: '021000021',
  bankType: 'otherbank',
} as const;

export const validExternal = { routeNumber: '011000015', nameOfBank: 'First Example Bank', nameOfCountry: 'United States' };

/**
 * A payments suite's app and kit (test/suite.ts): the app is built on `database()` before the
 * suite's tests (and handed to `use`, which keeps what the tests read), and after them the ledger is
 * checked and the app closed. Call it inside the suite's describe block.
 */
export function paymentSuite(database: () => Database, use: (built: TestApp) => unknown, options: SuiteOptions = {}): ReturnType<typeof paymentKit> {
  return paymentKit(testAppSuite(database, use, withLedgerChecked(options)));
}
