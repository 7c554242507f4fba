import { setTimeout as sleep } from 'node:timers/promises';
import { LedgerInvariantError } from './assert.ts';
import { maxBatchAttempts, retryBackoffMaxMs } from './limits.ts';

/**
 * SQLSTATEs that mean "another transaction got there first", not "this batch is wrong":
 * unique_violation (the same transfer id, or a second resolution of one pending transfer, committed
 * by a concurrent batch after this one read), deadlock_detected (two batches inserting the same ids
 * in different orders) and serialization_failure. The ledger's own statements raise no other
 * unique violation, so running the batch again, which then reads the other's commit, answers
 * correctly (`exists`, `pending_transfer_already_posted`, ...).
 */
const conflictCodes: ReadonlySet<string> = new Set(['23505', '40P01', '40001']);

/**
 * Thrown by the ledger itself when what it read before taking its locks no longer holds after;
 * treated like a PostgreSQL write conflict: the batch is rolled back and run again.
 */
export class LedgerWriteConflict extends Error {
  override readonly name = 'LedgerWriteConflict';
}

export function isWriteConflict(error: unknown): boolean {
  if (error instanceof LedgerWriteConflict) return true;
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && conflictCodes.has(code);
}

/** Runs `attempt` until it does not meet a write conflict, a bounded number of times. */
export async function retryOnWriteConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isWriteConflict(error) || error instanceof LedgerInvariantError) throw error;
      if (attemptNumber >= maxBatchAttempts) throw error;
      // Jitter spreads out two batches that keep colliding; it is not an id, so Math.random will do.
      const jitterMs = Math.floor(Math.random() * retryBackoffMaxMs * attemptNumber) / maxBatchAttempts;
      await sleep(jitterMs);
    }
  }
}
