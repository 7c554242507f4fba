import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { operatorAccounts } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { accountHistory, lookupTransfers } from './history.ts';
import { openCustomerAccount, payment } from '../test/ledger.ts';
import { maxPageSize } from './limits.ts';
import { transferFlags } from './types.ts';

describeEachDatabase('ledger: history and lookups', (database) => {
  it('account history pages through debits and credits newest first, each transfer once', async () => {
    const customer = await openCustomerAccount(database(), 10_000n);
    const other = await openCustomerAccount(database(), 10_000n);
    const transfers = Array.from({ length: 23 }, (_, index) =>
      index % 3 === 0 ? payment(other, customer, BigInt(index + 1)) : payment(customer, other, BigInt(index + 1)),
    );
    await createTransfers(database(), transfers);

    const seen: string[] = [];
    let beforeSequence: bigint | undefined;
    let pages = 0;
    for (;;) {
      const page = await accountHistory(database(), customer, { limit: 5, beforeSequence });
      seen.push(...page.entries.map((entry) => entry.transfer.id));
      pages += 1;
      if (page.nextBeforeSequence === null) break;
      beforeSequence = page.nextBeforeSequence;
    }
    // 23 transfers plus the funding transfer, newest first.
    expect(pages).toBe(5);
    expect(seen).toHaveLength(24);
    expect(seen.slice(0, 23)).toEqual(transfers.map((transfer) => transfer.id).reverse());
  });

  it('history shows how each pending transfer stands now', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const pending = { ...payment(customer, operatorAccounts.settlementAch, 100n), flags: transferFlags.pending };
    await createTransfers(database(), [pending]);
    const before = await accountHistory(database(), customer, { limit: 1 });
    expect(before.entries[0]).toMatchObject({ transfer: { id: pending.id }, pendingState: 'pending' });
    await createTransfers(database(), [{ id: randomUUID(), pendingId: pending.id, flags: transferFlags.voidPendingTransfer }]);
    const after = await accountHistory(database(), customer, { limit: 2 });
    expect(after.entries.map((entry) => entry.pendingState)).toEqual([null, 'voided']);
  });

  it('a page size outside 1..maxPageSize is a caller bug', async () => {
    await expect(accountHistory(database(), operatorAccounts.bankCapital, { limit: maxPageSize + 1 })).rejects.toThrow(/limit/);
    await expect(accountHistory(database(), operatorAccounts.bankCapital, { limit: 0 })).rejects.toThrow(/limit/);
  });

  it('an account without transfers has an empty history', async () => {
    const customer = await openCustomerAccount(database());
    expect(await accountHistory(database(), customer)).toEqual({ entries: [], nextBeforeSequence: null });
  });

  it('lookupTransfers answers the transfers found, in the order asked', async () => {
    const customer = await openCustomerAccount(database(), 1_000n);
    const first = payment(customer, operatorAccounts.feesIncome, 1n);
    const second = payment(customer, operatorAccounts.feesIncome, 2n);
    await createTransfers(database(), [first, second]);
    const found = await lookupTransfers(database(), [second.id, randomUUID(), first.id]);
    expect(found.map((transfer) => [transfer.id, transfer.amountCents])).toEqual([
      [second.id, 2n],
      [first.id, 1n],
    ]);
  });
});
