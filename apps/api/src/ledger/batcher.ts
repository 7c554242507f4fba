import type { Clock } from '../db/clock.ts';
import { createCommitQueue } from '../db/commit-queue.ts';
import type { Database, Queryable } from '../db/database.ts';
import { assert, assertInteger } from './assert.ts';
import { createNormalizedTransfers, createNormalizedTransfersIn } from './create-transfers.ts';
import { defaultBatcherConcurrency, maxBatchSize } from './limits.ts';
import type { CreateTransferOutcome } from './result-codes.ts';
import { normalizeTransfer, type NormalizedTransfer } from './transfer-rules.ts';
import { hasFlag, transferFlags, type TransferInput } from './types.ts';

/**
 * Coalesces concurrent requests into shared batches (docs/ledger.md: "the API may coalesce concurrent
 * requests into one batch"). One batch is one transaction and one fsync, so under load many
 * requests share the cost of one commit. There is no timer: a request waits only while
 * `concurrency` batches are already in flight, and the requests that queued meanwhile go together
 * in the next batch. Under light load each request is its own batch, without added latency.
 *
 * Coalescing changes nothing a caller can observe: a batch applies its transfers in order, each
 * seeing the ones before it, exactly as if each request had been its own transaction in that
 * order. A request's transfers stay together and in order, so its linked chains stay intact.
 */
export interface TransferBatcher {
  /** One request: a transfer, or a linked chain that must stay whole. Outcomes are indexed within it. */
  submit(transfers: readonly TransferInput[]): Promise<CreateTransferOutcome[]>;
  createTransfer(transfer: TransferInput): Promise<CreateTransferOutcome>;
  /**
   * Transfers (each alone, or linked chains, in order) inside the caller's transaction, under the
   * batcher's clock: for callers that group their own requests and must commit their records with
   * the money (payments, decision 044). The caller retries its transaction on a write conflict.
   */
  createInTransaction(tx: Queryable, transfers: readonly TransferInput[]): Promise<CreateTransferOutcome[]>;
  /** Resolves when every request submitted so far has been answered. */
  drain(): Promise<void>;
}

export interface TransferBatcherOptions {
  /** Most transfers in one batch. */
  maxBatchSize?: number;
  /** Most batches in flight at once; each holds one database connection. */
  concurrency?: number;
  /** Dates the transfers and judges deadlines; without one, the transaction's now() (db/clock.ts). */
  clock?: Clock;
}

interface QueuedRequest {
  transfers: NormalizedTransfer[];
  resolve(outcomes: CreateTransferOutcome[]): void;
  reject(error: unknown): void;
}

export function createTransferBatcher(db: Database, options: TransferBatcherOptions = {}): TransferBatcher {
  const batchLimit = options.maxBatchSize ?? maxBatchSize;
  const concurrency = options.concurrency ?? defaultBatcherConcurrency;
  assertInteger(batchLimit, 1, maxBatchSize, 'maxBatchSize');
  assertInteger(concurrency, 1, 64, 'concurrency');

  const queue = createCommitQueue<QueuedRequest>({
    maxWeight: batchLimit,
    concurrency,
    weigh: (request) => request.transfers.length,
    run: runBatch,
  });

  async function runBatch(requests: QueuedRequest[]): Promise<void> {
    try {
      const outcomes = await createNormalizedTransfers(
        db,
        requests.flatMap((request) => request.transfers),
        options.clock,
      );
      let offset = 0;
      for (const request of requests) {
        const own = outcomes.slice(offset, offset + request.transfers.length);
        offset += request.transfers.length;
        request.resolve(own.map((outcome) => ({ ...outcome, index: outcome.index - (offset - request.transfers.length) })));
      }
    } catch (error) {
      for (const request of requests) request.reject(error);
    }
  }

  async function submit(input: readonly TransferInput[]): Promise<CreateTransferOutcome[]> {
    assert(input.length <= batchLimit, `a request holds at most ${batchLimit} transfers`);
    const transfers = input.map(normalizeTransfer);
    if (transfers.length === 0) return [];
    // A request that ends inside a chain would link into the next request; alone, it answers
    // linked_event_chain_open as it should.
    const last = transfers[transfers.length - 1];
    if (last && hasFlag(last.flags, transferFlags.linked)) return createNormalizedTransfers(db, transfers, options.clock);
    return new Promise((resolve, reject) => queue.push({ transfers, resolve, reject }));
  }

  return {
    submit,
    async createTransfer(transfer) {
      const [outcome] = await submit([transfer]);
      assert(outcome !== undefined, 'a transfer got no outcome');
      return outcome;
    },
    createInTransaction(tx, transfers) {
      assert(transfers.length <= batchLimit, `a batch holds at most ${batchLimit} transfers`);
      return createNormalizedTransfersIn(tx, transfers.map(normalizeTransfer), options.clock);
    },
    drain() {
      return queue.idle();
    },
  };
}
