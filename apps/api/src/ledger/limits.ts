/**
 * Every quantity the ledger handles has a limit, named here, so that no input, page, retry or
 * sweep can grow without bound.
 */

/** Counters and amounts are PostgreSQL bigint: the largest value one can hold is 2^63 - 1. */
export const amountMaxCents = 9_223_372_036_854_775_807n;

/** TigerBeetle's batch limit; one batch is one SQL transaction. */
export const maxBatchSize = 8_190;

/** How many ids one lookup may ask for. */
export const maxLookupSize = 8_190;

/** Account history pages. */
export const defaultPageSize = 50;
export const maxPageSize = 500;

/** A timeout is PostgreSQL integer seconds (about 68 years); TigerBeetle allows 2^32 - 1. */
export const maxTimeoutSeconds = 2_147_483_647;

/** Ledger numbers are unsigned 32-bit in TigerBeetle; PostgreSQL integer holds 2^31 - 1. */
export const maxLedger = 2_147_483_647;

/** Account and transfer codes are unsigned 16-bit, as in TigerBeetle. */
export const maxCode = 65_535;

/**
 * A batch that meets a concurrent writer (a unique-key race on the same transfer id, a deadlock
 * between two batches inserting the same ids in different orders) is run again from the start;
 * the next run reads what the other writer committed. More than this many conflicts in a row is
 * not contention but a bug, and is thrown.
 */
export const maxBatchAttempts = 10;
export const retryBackoffMaxMs = 20;

/** The expiry sweep releases at most this many reservations per transaction ... */
export const maxExpireBatchSize = 1_000;
/** ... and at most this many transactions per call; the scheduler calls again for the rest. */
export const maxExpireRounds = 100;

/** checkLedger reports at most this many violations of each invariant. */
export const maxViolationsReported = 100;

/** The in-process batcher: how many batches may be in flight at once. */
export const defaultBatcherConcurrency = 4;
