import { sqlInstant, type Clock } from '../db/clock.ts';
import type { Database, Queryable } from '../db/database.ts';
import { assert } from './assert.ts';
import { BatchState } from './batch-state.ts';
import { maxBatchSize } from './limits.ts';
import { applyLinkedChains } from './linked-chains.ts';
import { isTransientTransferResult, type CreateTransferOutcome } from './result-codes.ts';
import { LedgerWriteConflict, retryOnWriteConflict } from './retry.ts';
import { accountFromRow, isPendingState, transferFromRow, type AccountRow, type TransferRow } from './rows.ts';
import { applyTransfer, normalizeTransfer, resolvesPending, type NormalizedTransfer } from './transfer-rules.ts';
import { lockAccountsStatement, readTransferAccountsStatement, readTransfersStatement } from './transfer-sql.ts';
import { hasFlag, intMaxId, transferFlags, zeroId, type LedgerTransfer, type TransferInput } from './types.ts';
import { writeBatch } from './write-batch.ts';

/**
 * Creates a batch of transfers in one SQL transaction, with TigerBeetle's semantics: each transfer
 * sees the ones before it, linked chains succeed or fail as one, and every transfer gets a result.
 * Expected failures are results; only a bug (LedgerInvariantError) or the database failing throws.
 * Without a clock the transaction's now() dates the transfers and judges deadlines (db/clock.ts).
 */
export async function createTransfers(db: Database, transfers: readonly TransferInput[], clock?: Clock): Promise<CreateTransferOutcome[]> {
  assert(transfers.length <= maxBatchSize, `a batch holds at most ${maxBatchSize} transfers`);
  return createNormalizedTransfers(db, transfers.map(normalizeTransfer), clock);
}

/** For callers that normalized (and so validated) each request themselves, such as the batcher. */
export async function createNormalizedTransfers(db: Database, batch: readonly NormalizedTransfer[], clock?: Clock): Promise<CreateTransferOutcome[]> {
  assert(batch.length <= maxBatchSize, `a batch holds at most ${maxBatchSize} transfers`);
  if (batch.length === 0) return [];
  // Read once per attempt, as now() is once per transaction: a retry happens later.
  return retryOnWriteConflict(() => db.transaction((tx) => executeBatch(tx, batch, sqlInstant(clock))));
}

/**
 * `createTransfers` inside a transaction the caller owns, for a caller that must commit what it
 * records beside the money (a card payment's row, a repayment of what an account owes) with it.
 * The caller retries its whole transaction on a write conflict (retry.ts: retryOnWriteConflict).
 */
export async function createTransfersIn(tx: Queryable, transfers: readonly TransferInput[], clock?: Clock): Promise<CreateTransferOutcome[]> {
  assert(transfers.length <= maxBatchSize, `a batch holds at most ${maxBatchSize} transfers`);
  return createNormalizedTransfersIn(tx, transfers.map(normalizeTransfer), clock);
}

/**
 * The same batch inside a transaction the caller owns, so that what it records beside the money
 * commits with it (a payment and its answer, decision 044). The caller commits, and on a write
 * conflict (retry.ts: isWriteConflict) rolls back and runs its whole transaction again.
 */
export async function createNormalizedTransfersIn(tx: Queryable, batch: readonly NormalizedTransfer[], clock?: Clock): Promise<CreateTransferOutcome[]> {
  assert(batch.length <= maxBatchSize, `a batch holds at most ${maxBatchSize} transfers`);
  if (batch.length === 0) return [];
  return executeBatch(tx, batch, sqlInstant(clock));
}

interface TransferOrFailureRow extends Omit<TransferRow, 'sequence'> {
  sequence: bigint | null;
  failed_result: string | null;
  pending_state: string | null;
  deadline_passed: boolean | null;
}

async function executeBatch(tx: Queryable, batch: readonly NormalizedTransfer[], now: Date | null): Promise<CreateTransferOutcome[]> {
  const state = new BatchState();
  const storedTransfers = new Map<string, LedgerTransfer>();
  const batchIds = unique(batch.map((t) => t.id).filter(isUsableId));
  const pendingIds = unique(
    batch
      .filter((t) => resolvesPending(t.flags))
      .map((t) => t.pendingId)
      .filter(isUsableId),
  );
  const pendingIdSet = new Set(pendingIds);

  // 1. Which accounts to lock: the ones named, and those of the pending transfers to post or void.
  // A stored transfer never changes, so its accounts can be read before taking any lock.
  const accountIds = new Set<string>();
  for (const t of batch) {
    if (resolvesPending(t.flags)) continue;
    if (isUsableId(t.debitAccountId)) accountIds.add(t.debitAccountId);
    if (isUsableId(t.creditAccountId)) accountIds.add(t.creditAccountId);
  }
  if (pendingIds.length > 0) {
    const pendingRows = await tx.query<{ debit_account_id: string; credit_account_id: string }>(readTransferAccountsStatement.text, [pendingIds], {
      name: readTransferAccountsStatement.name,
    });
    for (const row of pendingRows) accountIds.add(row.debit_account_id).add(row.credit_account_id);
  }

  // 2. Lock them, in ascending id order.
  if (accountIds.size > 0) {
    const accountRows = await tx.query<AccountRow>(lockAccountsStatement.text, [[...accountIds]], {
      name: lockAccountsStatement.name,
    });
    let previousId = '';
    for (const row of accountRows) {
      assert(row.id > previousId, 'accounts must be locked in ascending id order');
      previousId = row.id;
      state.addLockedAccount(accountFromRow(row));
    }
  }

  // 3. Under the locks: the batch's own ids (exists, id_already_failed) and the pending transfers
  // with their states. Any writer of the same accounts has committed or waits for this batch, so a
  // duplicate of one of these transfers sent at the same moment is seen here, not missed.
  const rows = await tx.query<TransferOrFailureRow>(readTransfersStatement.text, [unique([...batchIds, ...pendingIds]), batchIds, now], {
    name: readTransfersStatement.name,
  });
  for (const row of rows) {
    if (row.failed_result !== null) {
      const failedResult = row.failed_result;
      assert(isTransientTransferResult(failedResult), `failed transfer ${row.id} has result ${failedResult}`);
      state.failedIds.set(row.id, failedResult);
      continue;
    }
    assert(row.sequence !== null, `transfer ${row.id} has no sequence`);
    const transfer = transferFromRow({ ...row, sequence: row.sequence });
    storedTransfers.set(transfer.id, transfer);
    state.transfers.set(transfer.id, transfer);
    if (!hasFlag(transfer.flags, transferFlags.pending)) continue;
    const pendingState = row.pending_state;
    assert(pendingState !== null && isPendingState(pendingState), `pending transfer ${row.id} has state ${pendingState}`);
    state.pendingStates.set(transfer.id, {
      state: pendingState,
      deadlinePassed: row.deadline_passed === true,
      resolvedById: null,
      createdInBatch: false,
    });
    // A pending transfer committed between step 1 and the locks has accounts this batch did not
    // lock; running the batch again locks them.
    const locked = state.accounts.has(transfer.debitAccountId) && state.accounts.has(transfer.creditAccountId);
    if (pendingIdSet.has(transfer.id) && !locked) {
      throw new LedgerWriteConflict(`pending transfer ${transfer.id} appeared while the batch waited for its locks`);
    }
  }

  // 4. Decide every transfer in memory, in order.
  const results = applyLinkedChains(
    batch,
    (t) => hasFlag(t.flags, transferFlags.linked),
    (t) => applyTransfer(state, t),
    state,
    (t, result) => {
      if (isTransientTransferResult(result) && !state.failedIds.has(t.id)) state.recordFailure(t.id, result);
    },
  );

  // 5. Write once, then answer.
  const created = await writeBatch(tx, state, now);
  return results.map((result, index): CreateTransferOutcome => {
    const id = batch[index]?.id ?? zeroId;
    if (result === 'ok' || result === 'exists') {
      const transfer = created.get(id) ?? storedTransfers.get(id);
      assert(transfer !== undefined, `transfer ${id} answered ${result} but is nowhere`);
      return { index, id, result, transfer };
    }
    if (result === 'id_already_failed') {
      const firstResult = state.failedIds.get(id);
      assert(firstResult !== undefined, `transfer ${id} answered id_already_failed without a first failure`);
      return { index, id, result, firstResult };
    }
    return { index, id, result };
  });
}

/** Zero and int-max ids are answered by the rules; they are never looked up or locked. */
function isUsableId(id: string): boolean {
  return id !== zeroId && id !== intMaxId;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
