import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { waitingIdentityReview } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import type { Config } from '../../config.ts';
import { demoSignIn, seedSandbox } from './sandbox-seed.ts';

describeEachDatabase('onboarded customers: the ops CLI and the sandbox seed', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  it('create-customer prints the new customer and funds checking from capital through the ledger', async () => {
    const result = await runOpsCommand({ database: async () => database(), config }, 'create-customer', [
      '--email',
      'ops@example.com',
      '--password',
      'a long ops password',
      '--phone',
      '+12025550123',
      '--fund-cents',
      '123456',
    ]);
    expect(result.exitCode).toBe(0);
    const created = JSON.parse(result.output) as { userId: string; accounts: { id: string; type: string; number: string }[] };
    expect(created.accounts.map((account) => account.type).sort()).toEqual(['checking', 'savings']);

    const browser = new TestBrowser(app);
    const login = await browser.post('/api/v1/auth/login', { email: 'ops@example.com', password: 'a long ops password' });
    expect(login.json()).toMatchObject({ next: 'dashboard', user: { id: created.userId, phoneNumber: '+12025550123', accountVerified: true } });
    const accounts = (await browser.get('/api/v1/accounts')).json() as { type: string; balanceCents: number; availableCents: number }[];
    expect(accounts.find((account) => account.type === 'checking')).toMatchObject({ balanceCents: 123_456, availableCents: 123_456 });
    expect(accounts.find((account) => account.type === 'savings')).toMatchObject({ balanceCents: 0 });
    expect((await checkLedger(database())).ok).toBe(true);

    // GET /accounts reads the identity review with the accounts (decision 082): active while the
    // latest review is approved, inactive (still open) once a newer one waits for staff.
    const activeOf = async () =>
      ((await browser.get('/api/v1/accounts')).json() as { status: string; active: boolean }[]).map(({ status, active }) => ({ status, active }));
    expect(await activeOf()).toEqual([
      { status: 'open', active: true },
      { status: 'open', active: true },
    ]);
    await waitingIdentityReview(database(), config.secrets.encryptionKey, created.userId);
    expect(await activeOf()).toEqual([
      { status: 'open', active: false },
      { status: 'open', active: false },
    ]);
  });

  it('create-customer refuses a taken email and bad arguments with a message and a non-zero exit', async () => {
    expect(
      (
        await runOpsCommand({ database: async () => database(), config }, 'create-customer', [
          '--email',
          'ops@example.com',
          '--password',
          'a long ops password',
        ])
      ).exitCode,
    ).toBe(1);
    expect((await runOpsCommand({ database: async () => database(), config }, 'create-customer', ['--email', 'x@example.com'])).exitCode).toBe(2);
    expect(
      (
        await runOpsCommand({ database: async () => database(), config }, 'create-customer', [
          '--email',
          'x@example.com',
          '--password',
          'a long ops password',
          '--fund-cents',
          '12.50',
        ])
      ).exitCode,
    ).toBe(2);
    expect(
      (await runOpsCommand({ database: async () => database(), config }, 'create-customer', ['--email', 'x@example.com', '--password', 'password'])).exitCode,
    ).toBe(2);
  });

  it('seeds the sandbox demo customer once, with money whose balances come from the ledger', async () => {
    const dependencies = { db: database(), storage: app.services.storage, secrets: config.secrets };
    expect(await seedSandbox(dependencies)).toBe('seeded');
    expect(await seedSandbox(dependencies)).toBe('present');
    const browser = new TestBrowser(app);
    expect((await browser.post('/api/v1/auth/login', demoSignIn)).statusCode).toBe(200);
    const accounts = (await browser.get('/api/v1/accounts')).json() as { type: string; balanceCents: number }[];
    expect(Object.fromEntries(accounts.map((account) => [account.type, account.balanceCents]))).toEqual({ checking: 346_580, savings: 25_000 });
    expect((await runOpsCommand({ database: async () => database(), config }, 'check-ledger', [])).exitCode).toBe(0);
  });

  it("answers GET /accounts with 401 when signed out, and only ever the caller's own accounts", async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/accounts' })).statusCode).toBe(401);
    const first = new TestBrowser(app);
    await first.post('/api/v1/auth/login', demoSignIn);
    const second = new TestBrowser(app);
    await second.post('/api/v1/auth/login', { email: 'ops@example.com', password: 'a long ops password' });
    const mine = ((await first.get('/api/v1/accounts')).json() as { id: string }[]).map((account) => account.id);
    const theirs = ((await second.get('/api/v1/accounts')).json() as { id: string }[]).map((account) => account.id);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
  });
});
