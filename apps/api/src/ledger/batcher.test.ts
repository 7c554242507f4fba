import { expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { balanceOf } from './accounts.ts';
import { createTransferBatcher } from './batcher.ts';
import { accountOf, expectLedgerConsistent, openCustomerAccount, payment } from '../test/ledger.ts';
import { transferFlags } from './types.ts';

describeEachDatabase('ledger: the transfer batcher', (database) => {
  it('answers each of many concurrent requests as if it had been sent alone, in far fewer transactions', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const payee = await openCustomerAccount(database());
    const db = database();
    let transactions = 0;
    const counting: Database = {
      ...db,
      transaction: (work, options) => {
        transactions += 1;
        return db.transaction(work, options);
      },
    };
    const countingBatcher = createTransferBatcher(counting, { concurrency: 2 });
    // 150 requests of 10: the first hundred fit in the balance, the rest must fail.
    const outcomes = await Promise.all(Array.from({ length: 150 }, () => countingBatcher.createTransfer(payment(customer, payee, 10n))));
    expect(outcomes.filter((outcome) => outcome.result === 'ok')).toHaveLength(100);
    expect(outcomes.filter((outcome) => outcome.result === 'exceeds_credits')).toHaveLength(50);
    expect(outcomes.every((outcome) => outcome.index === 0)).toBe(true);
    expect(transactions).toBeLessThan(20);
    expect(balanceOf(await accountOf(database(), payee)).balanceCents).toBe(1_000n);
    await countingBatcher.drain();
    await expectLedgerConsistent(database());
  });

  it('keeps each request whole and indexes its outcomes within it', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const batcher = createTransferBatcher(database());
    const chain = [{ ...payment(customer, payee, 60n), flags: transferFlags.linked }, payment(customer, payee, 60n)];
    const [single, chained, after] = await Promise.all([
      batcher.createTransfer(payment(customer, payee, 30n)),
      batcher.submit(chain),
      batcher.createTransfer(payment(customer, payee, 70n)),
    ]);
    expect(single?.result).toBe('ok');
    expect(chained?.map((outcome) => [outcome.index, outcome.result])).toEqual([
      [0, 'linked_event_failed'],
      [1, 'exceeds_credits'],
    ]);
    expect(after?.result).toBe('ok');
  });

  it('a request that ends inside a chain fails alone with linked_event_chain_open and cannot link into another request', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const batcher = createTransferBatcher(database());
    const [open, other] = await Promise.all([
      batcher.submit([{ ...payment(customer, payee, 10n), flags: transferFlags.linked }]),
      batcher.createTransfer(payment(customer, payee, 10n)),
    ]);
    expect(open?.map((outcome) => outcome.result)).toEqual(['linked_event_chain_open']);
    expect(other.result).toBe('ok');
  });

  it('a malformed request is refused to its caller alone', async () => {
    const customer = await openCustomerAccount(database(), 100n);
    const payee = await openCustomerAccount(database());
    const batcher = createTransferBatcher(database());
    const [bad, good] = await Promise.allSettled([
      batcher.createTransfer({ ...payment(customer, payee, 10n), id: 'nope' }),
      batcher.createTransfer(payment(customer, payee, 10n)),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status === 'fulfilled' && good.value.result).toBe('ok');
    expect(await batcher.submit([])).toEqual([]);
  });
});
