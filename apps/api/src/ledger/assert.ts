import { amountMaxCents } from './limits.ts';

/**
 * A broken invariant or a broken precondition: a bug, never a customer's mistake. It is thrown
 * inside the batch's transaction, so nothing of the batch is written, and it is never caught by
 * the ledger. Expected failures (exceeds_credits, ...) are result values instead.
 */
export class LedgerInvariantError extends Error {
  override readonly name = 'LedgerInvariantError';
}

export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new LedgerInvariantError(message);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Ids are compared as strings in memory, so they must all be in PostgreSQL's lowercase form. */
export function assertUuid(value: string, what: string): void {
  assert(uuidPattern.test(value), `${what} must be a lowercase uuid, got ${JSON.stringify(value)}`);
}

/** Lowercases, then checks the shape: callers may send uppercase hex, the ledger never stores it. */
export function normalizeUuid(value: string, what: string): string {
  const lowercase = value.toLowerCase();
  assertUuid(lowercase, what);
  return lowercase;
}

export function assertCents(value: bigint, what: string): void {
  assert(value >= 0n && value <= amountMaxCents, `${what} must be within 0..2^63-1 cents, got ${value}`);
}

export function assertInteger(value: number, minimum: number, maximum: number, what: string): void {
  assert(Number.isInteger(value) && value >= minimum && value <= maximum, `${what} must be an integer within ${minimum}..${maximum}, got ${value}`);
}
