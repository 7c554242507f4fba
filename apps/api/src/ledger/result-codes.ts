import type { LedgerAccount, LedgerTransfer } from './types.ts';

/**
 * TigerBeetle's CreateTransferResult names (0.16), in its order of descending precedence: when
 * several apply, the first listed is answered. See docs/decisions/012-ledger-result-codes.md.
 *
 * Left out because they cannot happen here:
 * - imported_event_* and timestamp_must_be_zero: there is no import and no caller-set timestamp;
 *   PostgreSQL's clock stamps every transfer.
 * - exists_with_different_user_data_128/64/32: there are no user_data fields; business metadata
 *   lives in each feature's own table, keyed by the transfer id.
 * - closing_transfer_must_be_pending, debit_account_already_closed, credit_account_already_closed:
 *   there are no closing flags.
 * - overflows_timeout: a timeout is at most 2^31 - 1 seconds, which added to any timestamp a
 *   transfer can carry stays far inside timestamptz's range (year 294276).
 *
 * Kept from releases before 0.16: amount_must_not_be_zero, in its old place. Newer TigerBeetle
 * allows zero amounts for its balancing and closing transfers, which this ledger does not have;
 * a zero-cent payment is always a caller's mistake in a bank. (A post may still be for zero.)
 *
 * The overflows_* results guard PostgreSQL's bigint, 2^63 - 1, instead of 2^128 - 1.
 */
export const createTransferResults = [
  'ok',
  'linked_event_failed',
  'linked_event_chain_open',
  'reserved_flag',
  'id_must_not_be_zero',
  'id_must_not_be_int_max',
  'exists_with_different_flags',
  'exists_with_different_pending_id',
  'exists_with_different_timeout',
  'exists_with_different_debit_account_id',
  'exists_with_different_credit_account_id',
  'exists_with_different_amount',
  'exists_with_different_ledger',
  'exists_with_different_code',
  'exists',
  'id_already_failed',
  'flags_are_mutually_exclusive',
  'debit_account_id_must_not_be_zero',
  'debit_account_id_must_not_be_int_max',
  'credit_account_id_must_not_be_zero',
  'credit_account_id_must_not_be_int_max',
  'accounts_must_be_different',
  'pending_id_must_be_zero',
  'pending_id_must_not_be_zero',
  'pending_id_must_not_be_int_max',
  'pending_id_must_be_different',
  'timeout_reserved_for_pending_transfer',
  'amount_must_not_be_zero',
  'ledger_must_not_be_zero',
  'code_must_not_be_zero',
  'debit_account_not_found',
  'credit_account_not_found',
  'accounts_must_have_the_same_ledger',
  'transfer_must_have_the_same_ledger_as_accounts',
  'pending_transfer_not_found',
  'pending_transfer_not_pending',
  'pending_transfer_has_different_debit_account_id',
  'pending_transfer_has_different_credit_account_id',
  'pending_transfer_has_different_ledger',
  'pending_transfer_has_different_code',
  'exceeds_pending_transfer_amount',
  'pending_transfer_has_different_amount',
  'pending_transfer_already_posted',
  'pending_transfer_already_voided',
  'pending_transfer_expired',
  'overflows_debits_pending',
  'overflows_credits_pending',
  'overflows_debits_posted',
  'overflows_credits_posted',
  'overflows_debits',
  'overflows_credits',
  'exceeds_credits',
  'exceeds_debits',
] as const;
export type CreateTransferResult = (typeof createTransferResults)[number];

/**
 * Results that depend on the state of the ledger at the time, so that the same request could
 * succeed later (TigerBeetle's `transient`). The id of a transfer that failed so is remembered,
 * and a retry with that id answers id_already_failed: a payment refused for insufficient funds
 * must not go through by itself an hour later, after a deposit. Every other failure is decided by
 * the request alone and fails the same way each time it is sent.
 */
export const transientTransferResults = [
  'debit_account_not_found',
  'credit_account_not_found',
  'pending_transfer_not_found',
  'exceeds_credits',
  'exceeds_debits',
] as const satisfies readonly CreateTransferResult[];
export type TransientTransferResult = (typeof transientTransferResults)[number];

const transientSet: ReadonlySet<string> = new Set(transientTransferResults);
export function isTransientTransferResult(result: string): result is TransientTransferResult {
  return transientSet.has(result);
}

export function isCreateTransferResult(value: string): value is CreateTransferResult {
  return (createTransferResults as readonly string[]).includes(value);
}

export type CreateTransferFailure = Exclude<CreateTransferResult, 'ok' | 'exists' | 'id_already_failed'>;

/**
 * One answer per transfer of the batch, in the order sent. `ok` and `exists` carry the stored
 * transfer (for `exists`, the one created first: callers treat it as success). Within a linked
 * chain, as in TigerBeetle, `exists` is not `ok`: a resubmitted chain answers `exists` for its
 * first transfer and `linked_event_failed` for the rest.
 */
export type CreateTransferOutcome =
  | { index: number; id: string; result: 'ok' | 'exists'; transfer: LedgerTransfer }
  | { index: number; id: string; result: 'id_already_failed'; firstResult: TransientTransferResult }
  | { index: number; id: string; result: CreateTransferFailure };

/** TigerBeetle's CreateAccountResult names, in precedence order, for the fields accounts have. */
export const createAccountResults = [
  'ok',
  'linked_event_failed',
  'linked_event_chain_open',
  'reserved_flag',
  'id_must_not_be_zero',
  'id_must_not_be_int_max',
  'exists_with_different_flags',
  'exists_with_different_ledger',
  'exists_with_different_code',
  'exists',
  'flags_are_mutually_exclusive',
  'ledger_must_not_be_zero',
  'code_must_not_be_zero',
] as const;
export type CreateAccountResult = (typeof createAccountResults)[number];

export type CreateAccountOutcome =
  | { index: number; id: string; result: 'ok' | 'exists'; account: LedgerAccount }
  | { index: number; id: string; result: Exclude<CreateAccountResult, 'ok' | 'exists'> };
