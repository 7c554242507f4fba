import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { createTransferRequestSchema } from '@strongroom/contracts/payments.ts';
import { describe, expect, it, vi } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { claimIdempotencyKey, requestHash } from '../../platform/idempotency.ts';
import { insertPayment } from './repository.ts';
import { ledgers, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { ownTransfer, paymentSuite, withdrawalTo } from '../../test/payments.ts';
import { settlementTime } from './rail.ts';
import { derivedTransferId, reconcileDecisions } from './settlement.ts';
import { liveEventWait } from '../../test/live-events.ts';

describeEachDatabase('review holds, deposits, withdrawals and the rail', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  // As the running server runs it for `npm run ops`: with its live events, so open pages update.
  const review = (transferId: string, action: string, reason = 'Checked with the customer') =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'review', [transferId, action, '--reason', reason]);

  const internal = (fromAccountId: string, toAccountNumber: string, amountCents: number) => ({
    kind: 'internal',
    fromAccountId,
    toAccountNumber,
    accountName: 'Erin Example',
    amountCents,
    message: 'Deposit on a car',
  });

  describe('review holds', () => {
    it('holds a single transfer of $10,000 or more with its money reserved, and staff release posts it', async () => {
      const dana = await kit.customer({ fundCents: 2_000_000n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const response = await kit.payWithStepUp(dana, '/transfers', internal(dana.checking.id, erin.checking.number, 1_000_000));
      expect(response.statusCode, response.body).toBe(201);
      const transfer = response.json().transfer;
      expect(transfer.status).toBe('in_review');
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 2_000_000, availableCents: 1_000_000 } });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(0);
      const held = (await dana.browser.get('/api/v1/transfers?status=in_review')).json().items;
      expect(held.map((item: { id: string }) => item.id)).toEqual([transfer.id]);
      expect((await dana.browser.get('/api/v1/notifications')).json().items[0]).toMatchObject({ kind: 'held', name: 'Payment in review' });
      // The held payment's reservation never times out.
      const [state] = await database().query<{ expires_at: Date | null }>('SELECT expires_at FROM pending_transfer_states WHERE pending_id = $1', [
        transfer.id,
      ]);
      expect(state?.expires_at).toBeNull();

      const listed = await runOpsCommand({ database: async () => database(), config }, 'held-transfers', []);
      expect(JSON.parse(listed.output)).toContainEqual(
        expect.objectContaining({ transferId: transfer.id, amount: '$10,000.00', rule: 'A single payment of $10,000.00 or more' }),
      );

      const erinTopics: string[] = [];
      const stopListening = app.services.liveEvents.subscribe(erin.id, (topic) => erinTopics.push(topic));
      const released = await review(transfer.id, 'release');
      // Live events go through the database (LISTEN/NOTIFY): they arrive a moment after the commit.
      await vi.waitFor(() => expect(erinTopics).toEqual(expect.arrayContaining(['accounts', 'notifications'])), liveEventWait);
      stopListening();
      expect(released.exitCode, released.output).toBe(0);
      expect(JSON.parse(released.output)).toEqual({ transferId: transfer.id, outcome: 'released' });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(1_000_000);
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 1_000_000, availableCents: 1_000_000 } });
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('completed');

      const twice = await review(transfer.id, 'release');
      expect(twice.exitCode).toBe(1);
      expect(twice.output).toMatch(/already decided/);
      expect((await review(transfer.id, 'reject')).exitCode).toBe(1);
      expect((await kit.balances(erin)).checking.balanceCents).toBe(1_000_000);
    });

    it('holds more than $3,000 in 24 hours to new payees; a rejection gives the money back with the reason', async () => {
      const dana = await kit.customer({ fundCents: 1_000_000n });
      const first = await kit.payOtherBank(dana, { toAccountNumber: '1111222233', accountName: 'New One', amountCents: 200_000, message: 'first' });
      expect(first.json().transfer.status).toBe('pending');
      const second = await kit.payOtherBank(dana, { toAccountNumber: '4444555566', accountName: 'New Two', amountCents: 150_000, message: 'second' });
      expect(second.statusCode, second.body).toBe(201);
      const held = second.json().transfer;
      expect(held.status).toBe('in_review');

      const rejected = await review(held.id, 'reject', 'We could not confirm this payee');
      expect(JSON.parse(rejected.output).outcome).toBe('rejected');
      const after = (await dana.browser.get(`/api/v1/transfers/${held.id}`)).json().transfer;
      expect(after).toMatchObject({ status: 'rejected', statusReason: 'We could not confirm this payee' });
      await kit.runJobs();
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 800_000, availableCents: 800_000 } });
      const notification = (await dana.browser.get('/api/v1/notifications')).json().items.find((item: { kind: string }) => item.kind === 'rejected');
      expect(notification.text).toContain('We could not confirm this payee');
    });

    it('a released external payment goes on to the rail and settles', async () => {
      const dana = await kit.customer({ fundCents: 2_000_000n });
      const response = await kit.payOtherBank(dana, { toAccountNumber: '777788889', accountName: 'Big Payee', amountCents: 1_500_000, message: 'House' });
      const transfer = response.json().transfer;
      expect(transfer.status).toBe('in_review');
      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('in_review');
      await review(transfer.id, 'release');
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('pending');
      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${transfer.id}`)).json().transfer.status).toBe('completed');
      expect((await kit.balances(dana)).checking.balanceCents).toBe(500_000);
    });

    it('the ops review command refuses bad usage and unknown transfers', async () => {
      expect((await runOpsCommand({ database: async () => database(), config }, 'review', ['x', 'maybe', '--reason', 'r'])).exitCode).toBe(2);
      expect((await runOpsCommand({ database: async () => database(), config }, 'review', ['x', 'release'])).exitCode).toBe(2);
      expect((await review('7c0e4c4e-63b0-4b0e-9d2e-6a1f2b0c9d11', 'release')).exitCode).toBe(1);
    });

    it('a decision interrupted before its ledger step is completed by the sweep', async () => {
      const dana = await kit.customer({ fundCents: 2_000_000n });
      const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
      const transfer = (await kit.payWithStepUp(dana, '/transfers', internal(dana.checking.id, erin.checking.number, 1_200_000))).json().transfer;
      // As if the process died right after recording the release.
      await database().query(`UPDATE payments SET status = 'completed' WHERE id = $1`, [transfer.id]);
      expect(await reconcileDecisions({ db: database(), config })).toBe(1);
      expect((await kit.balances(erin)).checking.balanceCents).toBe(1_200_000);
      const [post] = await database().query<{ id: string }>('SELECT id FROM ledger_transfers WHERE pending_id = $1', [transfer.id]);
      expect(post?.id).toBe(derivedTransferId(transfer.id, 'post'));
    });
  });

  describe('payments left creating before decision 044 (migration 0039; decision 065 removed their recovery)', () => {
    /** What a request before decision 044 left behind when its process died before recording the ledger's answer. */
    async function claimLeftBehind(dana: Awaited<ReturnType<typeof kit.customer>>, body: Record<string, unknown>) {
      const paymentId = randomUUID();
      const key = randomUUID();
      await database().transaction(async (tx) => {
        await claimIdempotencyKey(tx, dana.id, key, requestHash('transfers', createTransferRequestSchema.parse(body)), paymentId);
        await insertPayment(tx, {
          id: paymentId,
          customerId: dana.id,
          kind: 'own',
          fromAccountId: dana.checking.id,
          toAccountId: dana.savings.id,
          amountCents: 2_500n,
          counterpartyName: 'Standard Savings',
          message: 'interrupted',
        });
      });
      return { paymentId, key };
    }

    const finishByMigration = async () =>
      database().transaction(async (tx) => {
        await tx.executeScript(await readFile(new URL('../../db/migrations/0039_finish_creating_payments.sql', import.meta.url), 'utf8'));
      });
    const ledgerAccountOf = async (accountId: string) =>
      (await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]))[0]!
        .ledger_account_id;

    it('one whose transfer the ledger took is completed as the ledger says, moves nothing again, and a replay of its key answers it', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const body = ownTransfer(dana.checking.id, dana.savings.id, 2_500, 'interrupted');
      const { paymentId, key } = await claimLeftBehind(dana, body);
      const [outcome] = await createTransfers(database(), [
        {
          id: paymentId,
          debitAccountId: await ledgerAccountOf(dana.checking.id),
          creditAccountId: await ledgerAccountOf(dana.savings.id),
          amountCents: 2_500n,
          ledger: ledgers.usd,
          code: transferCodes.ownTransfer,
        },
      ]);
      expect(outcome?.result).toBe('ok');
      await finishByMigration();
      await kit.runJobs();
      expect((await dana.browser.get(`/api/v1/transfers/${paymentId}`)).json().transfer.status).toBe('completed');
      const [first, second] = [await kit.pay(dana, '/transfers', body, key), await kit.pay(dana, '/transfers', body, key)];
      for (const replay of [first, second]) {
        expect(replay.statusCode, replay.body).toBe(201);
        expect(replay.json().transfer).toMatchObject({ id: paymentId, status: 'completed' });
      }
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 7_500 }, savings: { balanceCents: 2_500 } });
    });

    it('one the ledger never saw fails with its reason and moves no money; no sweep sends it late, and a replay of its key is told to check', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const body = ownTransfer(dana.checking.id, dana.savings.id, 2_500, 'interrupted');
      const { paymentId, key } = await claimLeftBehind(dana, body);
      await database().query(`UPDATE payments SET created_at = now() - interval '1 minute' WHERE id = $1`, [paymentId]);
      await kit.runJobs();
      // The sweep no longer sends it (the recovery path is gone): it is still 'creating' until the migration.
      expect((await database().query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId]))[0]?.status).toBe('creating');
      await finishByMigration();
      const [row] = await database().query<{ status: string; status_reason: string | null }>('SELECT status, status_reason FROM payments WHERE id = $1', [
        paymentId,
      ]);
      expect(row).toEqual({ status: 'failed', status_reason: 'Interrupted before any money moved (finished by migration 0039)' });
      const replay = await kit.pay(dana, '/transfers', body, key);
      expect(replay.statusCode, replay.body).toBe(409);
      expect(replay.json().error.code).toBe('conflict');
      expect((await dana.browser.get(`/api/v1/transfers/${paymentId}`)).statusCode).toBe(404);
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 10_000 }, savings: { balanceCents: 0 } });
    });
  });

  describe('withdrawals', () => {
    const withdrawal = (fromAccountId: string, amountCents: number) => withdrawalTo(fromAccountId, amountCents);

    it('asks for a step-up first, reserves the money while the wire is pending, and settles it', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const response = await kit.payWithStepUp(dana, '/withdrawals', withdrawal(dana.checking.id, 20_000));
      expect(response.statusCode, response.body).toBe(201);
      const transfer = response.json().transfer;
      expect(transfer).toMatchObject({ kind: 'withdrawal', status: 'pending', counterparty: { name: 'Dana Demo', bankName: 'First Example Bank' } });
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 50_000, availableCents: 30_000 } });
      await kit.runJobs();
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 30_000, availableCents: 30_000 } });
    });

    it('requires all nine fields', async () => {
      const dana = await kit.customer();
      const response = await kit.pay(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 100 });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).sort()).toEqual([
        'accountName',
        'accountNumber',
        'bankAddress',
        'country',
        'nameOfBank',
        'routeNumber',
        'stateName',
      ]);
    });

    it('answers insufficient_funds after the step-up when the balance is too small', async () => {
      const dana = await kit.customer({ fundCents: 1_000n });
      const response = await kit.payWithStepUp(dana, '/withdrawals', withdrawal(dana.checking.id, 1_001));
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('insufficient_funds');
      expect((await kit.balances(dana)).checking.availableCents).toBe(1_000);
    });
  });

  describe('rail timing', () => {
    it('realistic ACH settles in 3 to 5 business days, wire within 24 hours; the same payment always gets the same time', () => {
      const friday = new Date('2026-11-20T15:00:00Z');
      for (let index = 0; index < 50; index += 1) {
        const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
        const ach = settlementTime('ach', 'realistic', id, friday);
        const days = (ach.getTime() - friday.getTime()) / 86_400_000;
        // Friday + 3..5 business days is Wednesday..Friday of the next week: 5 to 7 calendar days.
        expect(days).toBeGreaterThanOrEqual(5);
        expect(days).toBeLessThanOrEqual(7);
        expect([0, 6]).not.toContain(ach.getUTCDay());
        const wireHours = (settlementTime('wire', 'realistic', id, friday).getTime() - friday.getTime()) / 3_600_000;
        expect(wireHours).toBeGreaterThan(0);
        expect(wireHours).toBeLessThanOrEqual(24);
        expect(settlementTime('ach', 'realistic', id, friday)).toEqual(ach);
      }
      expect(settlementTime('ach', 'instant', 'x', friday)).toEqual(friday);
      expect(settlementTime('ach', 'fast', 'x', friday).getTime() - friday.getTime()).toBeLessThan(60_000);
    });
  });
});
