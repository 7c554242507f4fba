import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createTransferBatcher } from '../../ledger/batcher.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { buildTestApp } from '../../test/app.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { earlierRequest } from './answers.ts';
import { createPaymentCommitter, type PaymentToCommit } from './commit-group.ts';
import { executionOfPlan, planPayment, type PaymentRequest } from './plan.ts';

describeEachDatabase('payments committed in groups (decision 044)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentKit(() => ({ app, config, db: database() }));

  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database()));
  });
  afterAll(async () => {
    await kit.expectLedgerConsistent();
    await app.close();
  });

  /** The database as it is, counting the transactions begun through it. */
  function countingTransactions(db: Database): { db: Database; transactions: () => number } {
    let transactions = 0;
    const counted: Database = {
      kind: db.kind,
      query: (text, params, options) => db.query(text, params, options),
      transaction: (work, options) => {
        transactions += 1;
        return db.transaction(work, options);
      },
      listen: (channel, onNotification, onReconnected) => db.listen(channel, onNotification, onReconnected),
      close: () => db.close(),
    };
    return { db: counted, transactions: () => transactions };
  }

  async function paymentOf(who: PayingCustomer, request: PaymentRequest, idempotencyKey = randomUUID()): Promise<PaymentToCommit> {
    const plan = await planPayment({ db: database(), config, customerId: who.id, customerName: 'Demo Customer' }, request);
    const paymentId = randomUUID();
    return {
      customerId: who.id,
      endpoint: request.endpoint,
      paymentId,
      idempotencyKey,
      requestHash: requestHash(request.endpoint, request.body),
      stepUpChallengeId: undefined,
      plan,
      execution: executionOfPlan(plan, paymentId),
      audit: { actorType: 'customer', actorId: who.id, action: `payment.${request.endpoint}`, subject: paymentId, requestId: randomUUID() },
    };
  }

  function own(who: PayingCustomer, amountCents: number): PaymentRequest {
    return { endpoint: 'transfers', body: { kind: 'own', fromAccountId: who.checking.id, toAccountId: who.savings.id, amountCents, message: 'grouped' } };
  }

  it('payments sent at the same moment share one transaction, and each is answered as if it had been sent alone', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const erin = await kit.customer({ fundCents: 1_000n });
    const counting = countingTransactions(database());
    const committer = createPaymentCommitter({ db: counting.db, ledger: createTransferBatcher(counting.db), config });
    // Six of Dana's transfers of $15 fit in her $100, one after the other; Erin's second is over her $10.
    const payments = [
      ...(await Promise.all(Array.from({ length: 7 }, () => paymentOf(dana, own(dana, 1_500))))),
      await paymentOf(erin, own(erin, 600)),
      await paymentOf(erin, own(erin, 600)),
    ];
    const answers = await Promise.all(payments.map((payment) => committer.commit(payment)));

    expect(counting.transactions()).toBe(1);
    expect(answers.map((answer) => (answer.kind === 'finished' ? answer.result.outcome : answer.kind))).toEqual([
      'made',
      'made',
      'made',
      'made',
      'made',
      'made',
      'refused',
      'made',
      'refused',
    ]);
    expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 1_000 }, savings: { balanceCents: 9_000 } });
    expect(await kit.balances(erin)).toMatchObject({ checking: { balanceCents: 400 }, savings: { balanceCents: 600 } });
    // Each payment's answer to replay, and its audit entry, committed with it.
    for (const [index, payment] of payments.entries()) {
      const replay = await earlierRequest(database(), payment.customerId, payment.idempotencyKey, payment.requestHash);
      expect(replay.state).toBe('answered');
      if (replay.state === 'answered') expect(replay.result.outcome).toBe(index === 6 || index === 8 ? 'refused' : 'made');
    }
    const audits = await database().query<{ subject: string; outcome: string }>('SELECT subject, outcome FROM audit_log WHERE subject = ANY($1::text[])', [
      payments.map((payment) => payment.paymentId),
    ]);
    expect(audits).toHaveLength(payments.length);
    expect(audits.filter((audit) => audit.outcome === 'failure')).toHaveLength(2);
  });

  it('two requests with one Idempotency-Key in one group move the money once', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const committer = createPaymentCommitter({ db: database(), ledger: createTransferBatcher(database()), config });
    const key = randomUUID();
    const [first, second] = [await paymentOf(dana, own(dana, 2_500), key), await paymentOf(dana, own(dana, 2_500), key)];
    if (!first || !second) throw new Error('no payments');
    const answers = await Promise.all([committer.commit(first), committer.commit(second)]);
    expect(answers.map((answer) => answer.kind)).toEqual(['finished', 'raced']);
    expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 7_500 }, savings: { balanceCents: 2_500 } });
  });

  it('a payment that fails inside a group fails alone: the others of its group are made, and nothing of it is written', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const erin = await kit.customer({ fundCents: 10_000n });
    const counting = countingTransactions(database());
    const committer = createPaymentCommitter({ db: counting.db, ledger: createTransferBatcher(counting.db), config });
    // Over the deposit limit: refused inside the group's transaction, which rolls back whole.
    const deposit = await paymentOf(erin, {
      endpoint: 'deposits',
      body: { accountId: erin.checking.id, fundingSourceId: erin.fundingSourceId, amountCents: Number(config.deposits.dailyLimitCents) + 100, reason: 'x' },
    });
    const transfers = [await paymentOf(dana, own(dana, 1_000)), await paymentOf(erin, own(erin, 2_000))];
    const answers = await Promise.allSettled([
      committer.commit(transfers[0] as PaymentToCommit),
      committer.commit(deposit),
      committer.commit(transfers[1] as PaymentToCommit),
    ]);

    expect(answers[1]).toMatchObject({ status: 'rejected', reason: { code: 'deposit_limit_exceeded' } });
    expect(answers[0]).toMatchObject({ status: 'fulfilled', value: { kind: 'finished', result: { outcome: 'made' } } });
    expect(answers[2]).toMatchObject({ status: 'fulfilled', value: { kind: 'finished', result: { outcome: 'made' } } });
    // The group, then each of its three payments alone.
    expect(counting.transactions()).toBe(4);
    expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 9_000 } });
    expect(await kit.balances(erin)).toMatchObject({ checking: { balanceCents: 8_000 } });
    const left = await database().query('SELECT 1 FROM idempotency_keys WHERE payment_id = $1 UNION ALL SELECT 1 FROM payments WHERE id = $1', [
      deposit.paymentId,
    ]);
    expect(left).toHaveLength(0);
  });
});
