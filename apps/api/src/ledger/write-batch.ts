import type { Queryable } from '../db/database.ts';
import { assert } from './assert.ts';
import type { BatchState } from './batch-state.ts';
import { LedgerWriteConflict } from './retry.ts';
import { assertAccount, assertTransfer } from './rows.ts';
import { writeBatchStatement, type WriteBatchRow } from './transfer-sql.ts';
import type { LedgerAccount, LedgerTransfer } from './types.ts';

interface CounterDelta {
  id: string;
  debitsPendingCents: bigint;
  debitsPostedCents: bigint;
  creditsPendingCents: bigint;
  creditsPostedCents: bigint;
}

/**
 * Writes what the batch decided, in one statement, after asserting every invariant the decision
 * must keep; then asserts that PostgreSQL arrived at the same counters. Returns the created
 * transfers with the sequence and timestamp PostgreSQL gave them: `now`, or else its own now().
 */
export async function writeBatch(tx: Queryable, state: BatchState, now: Date | null): Promise<Map<string, LedgerTransfer>> {
  const transfers = state.createdTransfers;
  const deltas = counterDeltas(state);
  const pendingStates = [...state.changedPendingIds].map((pendingId) => {
    const entry = state.pendingStates.get(pendingId);
    const pendingTransfer = state.transfers.get(pendingId);
    assert(entry !== undefined && pendingTransfer !== undefined, `pending transfer ${pendingId} vanished`);
    // A stored pending transfer can only be resolved; only a new one can be written as pending.
    assert(entry.createdInBatch || entry.state === 'posted' || entry.state === 'voided', `bad change to ${pendingId}`);
    return { pendingId, entry, timeoutSeconds: entry.createdInBatch ? pendingTransfer.timeoutSeconds : 0 };
  });
  if (transfers.length === 0 && state.newFailures.length === 0) {
    assert(deltas.length === 0 && pendingStates.length === 0, 'counters changed without a transfer');
    return new Map();
  }

  for (const transfer of transfers) assertTransfer(transfer);
  for (const delta of deltas) {
    const account = state.accounts.get(delta.id);
    assert(account !== undefined, `changed account ${delta.id} is not locked`);
    assertAccount(account);
  }
  // Double entry: every cent debited somewhere is credited somewhere, posted and pending alike.
  const sum = (pick: (delta: CounterDelta) => bigint) => deltas.reduce((total, delta) => total + pick(delta), 0n);
  assert(sum((d) => d.debitsPostedCents) === sum((d) => d.creditsPostedCents), 'the batch posts unbalanced amounts');
  assert(sum((d) => d.debitsPendingCents) === sum((d) => d.creditsPendingCents), 'the batch reserves unbalanced amounts');

  const [row] = await tx.query<WriteBatchRow>(
    writeBatchStatement.text,
    [
      transfers.map((t) => t.id),
      transfers.map((t) => t.debitAccountId),
      transfers.map((t) => t.creditAccountId),
      transfers.map((t) => t.amountCents.toString()),
      transfers.map((t) => t.pendingId),
      transfers.map((t) => t.timeoutSeconds),
      transfers.map((t) => t.ledger),
      transfers.map((t) => t.code),
      transfers.map((t) => t.flags),
      deltas.map((d) => d.id),
      deltas.map((d) => d.debitsPendingCents.toString()),
      deltas.map((d) => d.debitsPostedCents.toString()),
      deltas.map((d) => d.creditsPendingCents.toString()),
      deltas.map((d) => d.creditsPostedCents.toString()),
      pendingStates.map((p) => p.pendingId),
      pendingStates.map((p) => p.entry.state),
      pendingStates.map((p) => p.timeoutSeconds),
      pendingStates.map((p) => p.entry.resolvedById),
      state.newFailures.map((failure) => failure.id),
      state.newFailures.map((failure) => failure.result),
      now,
    ],
    { name: writeBatchStatement.name },
  );
  assert(row !== undefined, 'the batch write answered no row');

  assert(row.transfers.length === transfers.length, 'not every transfer was inserted');
  assert(Number(row.account_count) === deltas.length, 'not every changed account was updated');
  assert(Number(row.state_count) === pendingStates.length, 'a pending transfer was resolved twice');
  if (Number(row.failure_count) !== state.newFailures.length) {
    throw new LedgerWriteConflict('a transfer id that failed here was created meanwhile by another writer');
  }
  // PostgreSQL added the differences to the rows it had locked for this batch; the new counters
  // it holds must add up to the ones computed here (sums, so that checking costs one row).
  const expectedSums = [0n, 0n, 0n, 0n];
  for (const delta of deltas) {
    const account = state.accounts.get(delta.id);
    assert(account !== undefined, `changed account ${delta.id} is not locked`);
    expectedSums[0] = (expectedSums[0] ?? 0n) + account.debitsPendingCents;
    expectedSums[1] = (expectedSums[1] ?? 0n) + account.debitsPostedCents;
    expectedSums[2] = (expectedSums[2] ?? 0n) + account.creditsPendingCents;
    expectedSums[3] = (expectedSums[3] ?? 0n) + account.creditsPostedCents;
  }
  assert(row.account_sums === expectedSums.join(' '), "the counters in PostgreSQL differ from the batch's");

  const sequences = new Map(row.transfers.map(([id, sequence]) => [id, BigInt(sequence)]));
  const created = new Map<string, LedgerTransfer>();
  for (const transfer of transfers) {
    const sequence = sequences.get(transfer.id);
    assert(sequence !== undefined, `transfer ${transfer.id} got no sequence`);
    created.set(transfer.id, { ...transfer, sequence, createdAt: row.created_at });
  }
  return created;
}

/** Final minus locked counters, for each account the batch changed. */
function counterDeltas(state: BatchState): CounterDelta[] {
  const deltas: CounterDelta[] = [];
  for (const [id, account] of state.accounts) {
    const locked: LedgerAccount | undefined = state.lockedAccounts.get(id);
    assert(locked !== undefined, `account ${id} was changed without being locked`);
    if (account === locked) continue;
    const delta = {
      id,
      debitsPendingCents: account.debitsPendingCents - locked.debitsPendingCents,
      debitsPostedCents: account.debitsPostedCents - locked.debitsPostedCents,
      creditsPendingCents: account.creditsPendingCents - locked.creditsPendingCents,
      creditsPostedCents: account.creditsPostedCents - locked.creditsPostedCents,
    };
    // Posted counters only grow; a pending counter may shrink (a post, void or expiry releases it).
    assert(delta.debitsPostedCents >= 0n && delta.creditsPostedCents >= 0n, `account ${id} posted counters shrank`);
    const unchanged = delta.debitsPendingCents === 0n && delta.debitsPostedCents === 0n && delta.creditsPendingCents === 0n && delta.creditsPostedCents === 0n;
    if (!unchanged) deltas.push(delta);
  }
  return deltas;
}
