import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { listAccountsToShow } from '../accounts/repository.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';

/**
 * Deposits pull money from a verified account at another bank (docs/product.md section 6, issue 19).
 * A probe of the bank found that one request could create money: this suite is that attack and
 * everything that now stands in its way.
 */
interface AccountJson {
  type: 'checking' | 'savings';
  pendingDepositsCents: number;
}

describeEachDatabase('deposits from a verified source', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  const ops = (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, command, args);
  const deposit = (who: PayingCustomer, amountCents: number, options: { accountId?: string; fundingSourceId?: string; key?: string } = {}) =>
    kit.pay(
      who,
      '/deposits',
      {
        accountId: options.accountId ?? who.checking.id,
        fundingSourceId: options.fundingSourceId ?? who.fundingSourceId,
        amountCents,
        reason: 'Pay from my other bank',
      },
      options.key,
    );
  const internal = (from: PayingCustomer, toAccountNumber: string, amountCents: number) =>
    kit.payWithStepUp(from, '/transfers', {
      kind: 'internal',
      fromAccountId: from.checking.id,
      toAccountNumber,
      accountName: 'Erin Example',
      amountCents,
      message: 'Rent',
    });

  describe('what the probe tried', () => {
    it('refuses a $1,000,000 self-deposit with no source, as the probe sent it, and moves nothing', async () => {
      const mallory = await kit.customer({ fundCents: 0n });
      const attack = await kit.pay(mallory, '/deposits', { accountId: mallory.checking.id, amountCents: 100_000_000, reason: 'free money' });
      expect(attack.statusCode).toBe(409);
      expect(attack.json().error).toMatchObject({ code: 'no_funding_source' });
      await kit.runJobs();
      expect(await kit.balances(mallory)).toMatchObject({ checking: { balanceCents: 0, availableCents: 0 } });
      const [count] = await database().query<{ n: bigint }>("SELECT count(*)::bigint AS n FROM payments WHERE customer_id = $1 AND kind = 'deposit'", [
        mallory.id,
      ]);
      expect(count?.n).toBe(0n);
    });

    it('refuses the same with a verified source: above the daily limit, with what is left in the message', async () => {
      const mallory = await kit.customer({ fundCents: 0n });
      const attack = await deposit(mallory, 100_000_000);
      expect(attack.statusCode).toBe(422);
      expect(attack.json().error).toMatchObject({
        code: 'deposit_limit_exceeded',
        message: 'Deposits are limited to $5,000.00 a day. You can deposit up to $5,000.00 more today.',
      });
    });

    it('answers a deposit from another customer’s, an unverified, a failed or a removed source as if there were none', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const unverified = (
        await kit.payWithStepUp(dana, '/funding-sources', { accountName: 'Dana', accountNumber: '5550123', routeNumber: '011000015', accountType: 'savings' })
      ).json().fundingSource.id;
      const removed = await kit.verifiedSource(dana.id, '5550999', 'Dana');
      expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/funding-sources/${removed}` })).statusCode).toBe(204);
      await database().query("UPDATE funding_sources SET status = 'failed' WHERE id = $1", [unverified]);
      const failed = unverified;
      const pendingOne = (
        await kit.payWithStepUp(dana, '/funding-sources', { accountName: 'Dana', accountNumber: '5550124', routeNumber: '011000015', accountType: 'savings' })
      ).json().fundingSource.id;
      for (const [who, fundingSourceId] of [
        [mallory, dana.fundingSourceId],
        [dana, pendingOne],
        [dana, failed],
        [dana, removed],
        [dana, randomUUID()],
      ] as const) {
        const response = await deposit(who, 10_000, { fundingSourceId });
        expect(response.statusCode, fundingSourceId).toBe(409);
        expect(response.json().error.code).toBe('no_funding_source');
      }
    });
  });

  describe('funds availability', () => {
    it('reads the accounts and pending deposits of the customers asked for at the same moment in one statement, and shows each only their own', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const finn = await kit.customer({ fundCents: 0n, firstName: 'Finn', lastName: 'Example' });
      expect((await deposit(dana, 20_000)).statusCode).toBe(201);
      expect((await deposit(dana, 5_000, { accountId: dana.savings.id })).statusCode).toBe(201);
      expect((await deposit(erin, 7_000)).statusCode).toBe(201);

      const pages = await Promise.all([dana, erin, finn].map(async (who) => (await who.browser.get('/api/v1/accounts')).json<AccountJson[]>()));
      const pending = pages.map((accounts) => Object.fromEntries(accounts.map((account) => [account.type, account.pendingDepositsCents])));
      expect(pending).toEqual([
        { checking: 20_000, savings: 5_000 },
        { checking: 7_000, savings: 0 },
        { checking: 0, savings: 0 },
      ]);

      const statements: RecordedStatement[] = [];
      const recorded = recordingStatements(database(), statements);
      const read = await Promise.all([finn, erin, dana, erin].map((who) => listAccountsToShow(recorded, who.id)));
      const pendingOf = (accounts: { type: string; pending_total_cents: bigint | null }[]) =>
        Object.fromEntries(accounts.map((account) => [account.type, account.pending_total_cents]));
      expect(read.map(({ accounts }) => pendingOf(accounts))).toEqual([
        { checking: null, savings: null },
        { checking: 7_000n, savings: null },
        { checking: 20_000n, savings: 5_000n },
        { checking: 7_000n, savings: null },
      ]);
      expect(read.map(({ accounts }) => accounts.map((account) => account.customer_id))).toEqual([finn, erin, dana, erin].map((who) => [who.id, who.id]));
      // Each account's ledger account comes with it, as the ledger itself reads it.
      const ledgerAccounts = read.flatMap(({ accounts }) => accounts.map((account) => account.ledgerAccount));
      expect(ledgerAccounts).toEqual(
        await lookupAccounts(
          database(),
          ledgerAccounts.map((account) => account.id),
        ),
      );
      expect(read[2]?.accounts.map((account) => balanceOf(account.ledgerAccount).availableCents)).toEqual([0n, 0n]);
      expect(statements).toHaveLength(1);
    });

    it('holds a $200 deposit as pending and unspendable, shows when it will be available, then makes it available once it settles', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      // The instant rail settles at the next sweep, which the test runs when it chooses.
      const response = await deposit(dana, 20_000);
      expect(response.statusCode, response.body).toBe(201);
      const transfer = response.json().transfer;
      expect(transfer).toMatchObject({
        kind: 'deposit',
        status: 'pending',
        counterparty: { name: 'Demo Customer', accountNumber: '•••• 0055', routeNumber: '011000015' },
      });
      expect(transfer.expectedSettlementAt).not.toBeNull();

      const [account] = (await dana.browser.get('/api/v1/accounts')).json().filter((item: { type: string }) => item.type === 'checking');
      expect(account).toMatchObject({
        balanceCents: 0,
        availableCents: 0,
        pendingDepositsCents: 20_000,
        pendingDepositsAvailableAt: transfer.expectedSettlementAt,
      });
      const spend = await internal(dana, erin.checking.number, 15_000);
      expect(spend.statusCode).toBe(422);
      expect(spend.json().error.code).toBe('insufficient_funds');

      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('completed');
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 20_000, availableCents: 20_000 } });
      expect((await dana.browser.get('/api/v1/accounts')).json()[0]).toMatchObject({ pendingDepositsCents: 0, pendingDepositsAvailableAt: null });
      expect((await internal(dana, erin.checking.number, 15_000)).statusCode).toBe(201);
      expect((await dana.browser.get('/api/v1/notifications')).json().items.map((item: { name: string }) => item.name)).toContain('Deposit cleared');
    });
  });

  describe('the daily limit', () => {
    it('counts pending and cleared deposits of the day together, and says how much is left', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      expect((await deposit(dana, 300_000)).statusCode).toBe(201);
      await kit.runJobs();
      expect((await deposit(dana, 190_000)).statusCode).toBe(201);
      const over = await deposit(dana, 20_000);
      expect(over.statusCode).toBe(422);
      expect(over.json().error).toMatchObject({
        code: 'deposit_limit_exceeded',
        message: 'Deposits are limited to $5,000.00 a day. You can deposit up to $100.00 more today.',
      });
      expect((await deposit(dana, 10_000)).statusCode).toBe(201);
      const none = await deposit(dana, 1);
      expect(none.json().error.message).toBe('Deposits are limited to $5,000.00 a day, and you have reached it today. You can deposit again tomorrow.');
    });

    it('lets only as many concurrent deposits through as the limit holds', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const answers = await Promise.all(Array.from({ length: 5 }, () => deposit(dana, 150_000)));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 422, 422]);
    });

    it('answers a replayed deposit with its first answer and moves nothing more', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const key = randomUUID();
      const first = await deposit(dana, 5_000, { key });
      const again = await deposit(dana, 5_000, { key });
      expect(again.statusCode).toBe(201);
      expect(again.json().transfer.id).toBe(first.json().transfer.id);
      await kit.runJobs();
      expect((await kit.balances(dana)).checking.balanceCents).toBe(5_000);
    });
  });

  describe('returns in the sandbox', () => {
    it('returns a deposit from an account ending 0001 with R01: nothing is added, and the customer is told why', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const sourceId = await kit.verifiedSource(dana.id, '99990001', 'Dana');
      const transfer = (await deposit(dana, 20_000, { fundingSourceId: sourceId })).json().transfer;
      await kit.runJobs();
      const after = (await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer;
      expect(after).toMatchObject({
        status: 'returned',
        statusReason: 'The other bank returned it: insufficient funds (R01). Nothing was added to your account.',
      });
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 0, availableCents: 0 } });
      expect((await dana.browser.get('/api/v1/notifications')).json().items[0]).toMatchObject({ kind: 'returned', name: 'Deposit returned' });
      // Insufficient funds does not end the link; the source can be used again.
      expect((await dana.browser.get('/api/v1/funding-sources')).json().items.find((item: { id: string }) => item.id === sourceId).status).toBe('verified');
    });

    it('returns a deposit from an account ending 0002 with R02, and the closed account can no longer be used', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const sourceId = await kit.verifiedSource(dana.id, '99990002', 'Dana');
      const transfer = (await deposit(dana, 20_000, { fundingSourceId: sourceId })).json().transfer;
      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.statusReason).toContain('the account is closed (R02)');
      expect((await dana.browser.get('/api/v1/funding-sources')).json().items.find((item: { id: string }) => item.id === sourceId).status).toBe('failed');
      expect((await deposit(dana, 1_000, { fundingSourceId: sourceId })).json().error.code).toBe('no_funding_source');
    });
  });

  describe('a source removed while its deposit is pending', () => {
    it('keeps the deposit tied to it: it still settles', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const transfer = (await deposit(dana, 3_000)).json().transfer;
      expect((await dana.browser.request({ method: 'DELETE', url: `/api/v1/funding-sources/${dana.fundingSourceId}` })).statusCode).toBe(204);
      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('completed');
      expect((await kit.balances(dana)).checking.balanceCents).toBe(3_000);
    });
  });

  describe('a return after settlement', () => {
    it('takes the money back even below zero, stops money going out, tells the customer and staff, and is repaid by money coming in', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const erin = await kit.customer({ fundCents: 100_000n, firstName: 'Erin', lastName: 'Example' });
      const transfer = (await deposit(dana, 20_000)).json().transfer;
      await kit.runJobs();
      expect((await internal(dana, erin.checking.number, 15_000)).statusCode).toBe(201);
      expect((await kit.balances(dana)).checking.balanceCents).toBe(5_000);

      const returned = await ops('ach-return', [transfer.id, '--code', 'R01', '--reason', 'Late return in the rail file of 24 November']);
      expect(returned.exitCode, returned.output).toBe(0);
      expect(JSON.parse(returned.output)).toMatchObject({ outcome: 'returned_after_settlement' });
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: -15_000, availableCents: -15_000 } });
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer).toMatchObject({
        status: 'returned',
        statusReason: expect.stringContaining('after it had cleared'),
      });
      const names = (await dana.browser.get('/api/v1/notifications')).json().items.map((item: { name: string }) => item.name);
      expect(names).toEqual(expect.arrayContaining(['Deposit returned', 'Your account is below zero']));

      const blocked = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1, 'Savings'));
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().error).toMatchObject({ code: 'account_overdrawn', message: expect.stringContaining('-$150.00') });
      const negative = JSON.parse((await ops('negative-balances', [])).output);
      expect(negative).toContainEqual(expect.objectContaining({ accountId: dana.checking.id, balance: '-$150.00', owed: '$150.00' }));
      // Recording the same return twice changes nothing.
      expect((await ops('ach-return', [transfer.id, '--code', 'R01', '--reason', 'The same return again'])).exitCode).toBe(1);
      await kit.runJobs();
      expect((await kit.balances(dana)).checking.balanceCents).toBe(-15_000);
      await kit.expectLedgerConsistent();

      // Money that comes in pays what is owed first; then the account works again.
      expect((await internal(erin, dana.checking.number, 40_000)).statusCode).toBe(201);
      // Paid in the transaction that brought the money, not by a later sweep: the owed account is
      // settled before any job runs (decision 052; the money module's repayOwedIn).
      const [owed] = await database().query<{ owed: bigint }>(
        `SELECT (o.debits_posted - o.credits_posted)::bigint AS owed
           FROM customer_accounts a JOIN ledger_accounts o ON o.id = a.owed_ledger_account_id WHERE a.id = $1`,
        [dana.checking.id],
      );
      expect(owed?.owed).toBe(0n);
      await kit.runJobs();
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 25_000, availableCents: 25_000 } });
      expect((await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'Savings'))).statusCode).toBe(201);
      expect(JSON.parse((await ops('negative-balances', [])).output).map((row: { accountId: string }) => row.accountId)).not.toContain(dana.checking.id);
      await kit.expectLedgerConsistent();
    });

    it('takes back a returned deposit that was not spent without going below zero', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const transfer = (await deposit(dana, 20_000)).json().transfer;
      await kit.runJobs();
      expect((await ops('ach-return', [transfer.id, '--code', 'R10', '--reason', 'Customer of the other bank says not authorised'])).exitCode).toBe(0);
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 10_000, availableCents: 10_000 } });
      expect((await dana.browser.get('/api/v1/notifications')).json().items.map((item: { name: string }) => item.name)).not.toContain(
        'Your account is below zero',
      );
      expect((await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'Savings'))).statusCode).toBe(201);
    });

    it('refuses a return without a reason or with a code that is not a NACHA return code', async () => {
      const dana = await kit.customer({ fundCents: 0n });
      const transfer = (await deposit(dana, 1_000)).json().transfer;
      expect((await ops('ach-return', [transfer.id, '--code', 'R01'])).exitCode).toBe(2);
      expect((await ops('ach-return', [transfer.id, '--code', 'X99', '--reason', 'Because'])).exitCode).toBe(2);
      expect((await ops('ach-return', [randomUUID(), '--code', 'R01', '--reason', 'No such payment'])).exitCode).toBe(1);
    });
  });
});
