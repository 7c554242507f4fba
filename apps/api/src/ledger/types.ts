/**
 * Accounts and transfers as TigerBeetle defines them (docs/reference/account.md, transfer.md), with
 * uuid ids and bigint cents. Flags are bit sets, stored as they are, so that an exists check
 * compares them exactly as given.
 */

export const accountFlags = {
  /** Links this account's creation to the next one in the batch: all or none are created. */
  linked: 1,
  /** Credit-normal accounts that may not be overdrawn (customer deposits). */
  debitsMustNotExceedCredits: 2,
  /** Debit-normal accounts that may not go below zero. */
  creditsMustNotExceedDebits: 4,
} as const;
export const accountFlagsMask = 7;

export const transferFlags = {
  /** Links this transfer to the next one in the batch: all succeed or all fail. */
  linked: 1,
  /** Reserves the amount; a later post or void resolves it. */
  pending: 2,
  /** Posts (all or part of) the pending transfer named by pendingId. */
  postPendingTransfer: 4,
  /** Releases the pending transfer named by pendingId. */
  voidPendingTransfer: 8,
} as const;
export const transferFlagsMask = 15;

/** The nil uuid plays TigerBeetle's zero: "absent" where an id is optional, invalid as an id. */
export const zeroId = '00000000-0000-0000-0000-000000000000';
/** The all-ones uuid plays TigerBeetle's 2^128 - 1, reserved. */
export const intMaxId = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export interface AccountBalances {
  debitsPendingCents: bigint;
  debitsPostedCents: bigint;
  creditsPendingCents: bigint;
  creditsPostedCents: bigint;
}

export interface LedgerAccount extends AccountBalances {
  id: string;
  ledger: number;
  code: number;
  flags: number;
  createdAt: Date;
}

export interface LedgerTransfer {
  id: string;
  /** Order of creation across the whole ledger; pages and sweeps sort by it. */
  sequence: bigint;
  debitAccountId: string;
  creditAccountId: string;
  amountCents: bigint;
  /** The pending transfer a post or void resolves; null otherwise. */
  pendingId: string | null;
  /** Seconds a pending transfer may wait to be posted or voided; 0 means no timeout. */
  timeoutSeconds: number;
  ledger: number;
  code: number;
  flags: number;
  createdAt: Date;
}

export type PendingState = 'pending' | 'posted' | 'voided' | 'expired';

export interface AccountInput {
  id: string;
  ledger: number;
  code: number;
  flags?: number;
}

/**
 * What a caller asks for. An absent field is TigerBeetle's zero: for a post or void, absent
 * accounts, ledger and code are taken from the pending transfer, an absent amount posts or voids
 * the whole pending amount; for any other transfer an absent required field is an error result.
 */
export interface TransferInput {
  id: string;
  debitAccountId?: string;
  creditAccountId?: string;
  amountCents?: bigint;
  pendingId?: string;
  timeoutSeconds?: number;
  ledger?: number;
  code?: number;
  flags?: number;
}

export function hasFlag(flags: number, flag: number): boolean {
  return (flags & flag) !== 0;
}
