import { assert, assertCents } from './assert.ts';
import { accountFlags, accountFlagsMask, hasFlag, transferFlags, transferFlagsMask } from './types.ts';
import type { LedgerAccount, LedgerTransfer, PendingState } from './types.ts';

/**
 * Rows as both drivers return them (bigint as BigInt, timestamptz as Date), and their mapping to
 * the ledger's types. Every row read is asserted: a row that breaks an invariant stops the caller
 * before it can build on it.
 */

export const accountColumns = 'id, ledger, code, flags, debits_pending, debits_posted, credits_pending, credits_posted, created_at';

export const transferColumns = 'id, sequence, debit_account_id, credit_account_id, amount, pending_id, timeout, ledger, code, flags, created_at';

/** The column list with each column prefixed by a table alias, for joins. */
export function qualified(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}

export interface AccountRow {
  id: string;
  ledger: number;
  code: number;
  flags: number;
  debits_pending: bigint;
  debits_posted: bigint;
  credits_pending: bigint;
  credits_posted: bigint;
  created_at: Date;
}

export interface TransferRow {
  id: string;
  sequence: bigint;
  debit_account_id: string;
  credit_account_id: string;
  amount: bigint;
  pending_id: string | null;
  timeout: number;
  ledger: number;
  code: number;
  flags: number;
  created_at: Date;
}

export function accountFromRow(row: AccountRow): LedgerAccount {
  const account: LedgerAccount = {
    id: row.id,
    ledger: row.ledger,
    code: row.code,
    flags: row.flags,
    debitsPendingCents: row.debits_pending,
    debitsPostedCents: row.debits_posted,
    creditsPendingCents: row.credits_pending,
    creditsPostedCents: row.credits_posted,
    createdAt: row.created_at,
  };
  assertAccount(account);
  return account;
}

/**
 * For a feature's statement that reads ledger accounts with its own rows (an accounts page reads
 * each account's balances with the account, decision 082): the columns of `ledger_accounts` under
 * `alias`, each named `<prefix>_<column>`, and the account read back from them, asserted as every
 * account the ledger reads is. A row whose columns are null (an outer join that found no account)
 * reads as undefined.
 */
export function accountColumnsAs(alias: string, prefix: string): string {
  return accountColumns
    .split(', ')
    .map((column) => `${alias}.${column} AS ${prefix}_${column}`)
    .join(', ');
}

export function accountFromColumns(row: object, prefix: string): LedgerAccount | undefined {
  const column = (name: keyof AccountRow): unknown => Reflect.get(row, `${prefix}_${name}`);
  const id = column('id');
  if (id === null || id === undefined) return undefined;
  const typed = <T>(name: keyof AccountRow, is: (value: unknown) => value is T): T => {
    const value = column(name);
    assert(is(value), `ledger account ${String(id)}: ${prefix}_${name} was not read as its type`);
    return value;
  };
  const isString = (value: unknown): value is string => typeof value === 'string';
  const isNumber = (value: unknown): value is number => typeof value === 'number';
  const isBigint = (value: unknown): value is bigint => typeof value === 'bigint';
  const isDate = (value: unknown): value is Date => value instanceof Date;
  return accountFromRow({
    id: typed('id', isString),
    ledger: typed('ledger', isNumber),
    code: typed('code', isNumber),
    flags: typed('flags', isNumber),
    debits_pending: typed('debits_pending', isBigint),
    debits_posted: typed('debits_posted', isBigint),
    credits_pending: typed('credits_pending', isBigint),
    credits_posted: typed('credits_posted', isBigint),
    created_at: typed('created_at', isDate),
  });
}

export function assertAccount(account: LedgerAccount): void {
  const where = `account ${account.id}`;
  assert(account.ledger > 0 && account.code > 0, `${where} has a zero ledger or code`);
  assert((account.flags & ~accountFlagsMask) === 0, `${where} has unknown flags ${account.flags}`);
  assertCents(account.debitsPendingCents, `${where} debits_pending`);
  assertCents(account.debitsPostedCents, `${where} debits_posted`);
  assertCents(account.creditsPendingCents, `${where} credits_pending`);
  assertCents(account.creditsPostedCents, `${where} credits_posted`);
  assertAccountRespectsFlags(account);
}

export function assertAccountRespectsFlags(account: LedgerAccount): void {
  if (hasFlag(account.flags, accountFlags.debitsMustNotExceedCredits)) {
    assert(account.debitsPendingCents + account.debitsPostedCents <= account.creditsPostedCents, `account ${account.id} has debits exceeding credits`);
  }
  if (hasFlag(account.flags, accountFlags.creditsMustNotExceedDebits)) {
    assert(account.creditsPendingCents + account.creditsPostedCents <= account.debitsPostedCents, `account ${account.id} has credits exceeding debits`);
  }
}

export function transferFromRow(row: TransferRow): LedgerTransfer {
  const transfer: LedgerTransfer = {
    id: row.id,
    sequence: row.sequence,
    debitAccountId: row.debit_account_id,
    creditAccountId: row.credit_account_id,
    amountCents: row.amount,
    pendingId: row.pending_id,
    timeoutSeconds: row.timeout,
    ledger: row.ledger,
    code: row.code,
    flags: row.flags,
    createdAt: row.created_at,
  };
  assertTransfer(transfer);
  return transfer;
}

export function assertTransfer(transfer: Omit<LedgerTransfer, 'sequence' | 'createdAt'>): void {
  const where = `transfer ${transfer.id}`;
  assert(transfer.debitAccountId !== transfer.creditAccountId, `${where} debits and credits one account`);
  assertCents(transfer.amountCents, `${where} amount`);
  assert((transfer.flags & ~transferFlagsMask) === 0, `${where} has unknown flags ${transfer.flags}`);
  const resolves = hasFlag(transfer.flags, transferFlags.postPendingTransfer | transferFlags.voidPendingTransfer);
  assert(resolves === (transfer.pendingId !== null), `${where} has a pending id iff it posts or voids`);
  assert(transfer.timeoutSeconds === 0 || hasFlag(transfer.flags, transferFlags.pending), `${where} has a timeout but is not pending`);
  assert(transfer.ledger > 0 && transfer.code > 0, `${where} has a zero ledger or code`);
}

export function isPendingState(value: string): value is PendingState {
  return value === 'pending' || value === 'posted' || value === 'voided' || value === 'expired';
}
