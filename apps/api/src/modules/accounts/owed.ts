import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts, lookupAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers } from '../../ledger/codes.ts';
import { accountFlags, type LedgerAccount } from '../../ledger/types.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { listAccountsOwing, listOwingAmong, setOwedLedgerAccount, type OwingAccount, type OwingAccountRow } from './repository.ts';

export type { OwingAccount, OwingAccountRow } from './repository.ts';

/**
 * A customer's deposit account may never be overdrawn in the ledger (docs/ledger.md: its limit flag
 * refuses it). When another bank returns a deposit after it cleared and the money is already
 * spent, the bank takes it back from a second ledger account of the customer account: what it owes
 * the bank, debit-normal, created the first time it is needed. The balance the customer sees is
 * the account's balance minus what it owes, so it can be below zero; money that comes in later
 * pays what is owed first (move-money.ts `repayOwedIn` and `repayOwed`), and nothing goes out while anything is owed.
 * See docs/decisions/021-deposits-from-verified-sources.md.
 */
/** The id of the owed account is fixed by the customer account's, so creating it twice is harmless. */
export function owedLedgerAccountIdOf(customerAccountId: string): string {
  return derivedUuid(customerAccountId, 'owed');
}

export async function ensureOwedAccount(db: Database, account: OwingAccount): Promise<string> {
  if (account.owed_ledger_account_id) return account.owed_ledger_account_id;
  const id = owedLedgerAccountIdOf(account.id);
  // Debit-normal, and never credited beyond what was debited: repaying more than is owed fails.
  const [outcome] = await createAccounts(db, [{ id, ledger: ledgers.usd, code: accountCodes.customerOwed, flags: accountFlags.creditsMustNotExceedDebits }]);
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists'))
    throw new Error(`the ledger refused the owed account of ${account.id}: ${outcome?.result ?? 'no result'}`);
  await setOwedLedgerAccount(db, account.id, id);
  return id;
}

/** What the account owes the bank, from the ledger; zero for an account that never owed anything. */
export function owedCentsOf(owedAccount: LedgerAccount | undefined): bigint {
  return owedAccount ? balanceOf(owedAccount).balanceCents : 0n;
}

export async function owedCents(db: Queryable, account: Pick<OwingAccount, 'owed_ledger_account_id'>): Promise<bigint> {
  if (!account.owed_ledger_account_id) return 0n;
  const [owedAccount] = await lookupAccounts(db, [account.owed_ledger_account_id]);
  return owedCentsOf(owedAccount);
}

/** A customer account that owes: the deposit ledger account money arrives in, and what it owes the bank. */
export interface OwingLedgerAccounts {
  depositLedgerAccountId: string;
  owedLedgerAccountId: string;
}

/** Which of these deposit ledger accounts owe the bank something now: one statement, and none for an account that never owed. */
export function owingAmong(db: Queryable, depositLedgerAccountIds: readonly string[]): Promise<OwingLedgerAccounts[]> {
  if (depositLedgerAccountIds.length === 0) return Promise.resolve([]);
  return listOwingAmong(db, [...new Set(depositLedgerAccountIds)]);
}

/** A repayment of what an account owes: from its deposit ledger account to what it owes (kinds.ts: owed_repayment). */
export interface OwedRepayment {
  id: string;
  fromLedgerAccountId: string;
  toLedgerAccountId: string;
  amountCents: bigint;
}

/**
 * What each owing account repays now: the smaller of the debt and what it has available, read in
 * `tx`. Money that arrived pays what the account owes in the transaction that brought it (issue 30
 * item 6; decision 052): the caller has just credited each deposit account in `tx`, so the ledger
 * holds that account's row lock until the commit, and nothing can spend from it or repay from it
 * meanwhile; the figures read now therefore still hold when the money module (move-money.ts
 * `repayOwedIn`) writes the repayments, and they cannot be refused.
 */
export async function owedRepaymentsOf(tx: Queryable, owing: readonly OwingLedgerAccounts[]): Promise<OwedRepayment[]> {
  if (owing.length === 0) return [];
  const accounts = new Map(
    (
      await lookupAccounts(
        tx,
        owing.flatMap((pair) => [pair.depositLedgerAccountId, pair.owedLedgerAccountId]),
      )
    ).map((account) => [account.id, account]),
  );
  return owing.flatMap((pair) => {
    const deposit = accounts.get(pair.depositLedgerAccountId);
    const owed = accounts.get(pair.owedLedgerAccountId);
    if (!deposit || !owed) throw new Error(`the owing account ${pair.depositLedgerAccountId} is missing a ledger account`);
    const owedNow = owedCentsOf(owed);
    const available = balanceOf(deposit).availableCents;
    const amountCents = owedNow < available ? owedNow : available;
    if (amountCents <= 0n) return [];
    return [{ id: randomUUID(), fromLedgerAccountId: deposit.id, toLedgerAccountId: owed.id, amountCents }];
  });
}

/** Accounts that owe something and may have money to pay it with; the payments sweep repays them. */
export async function accountsOwing(db: Queryable, limit: number): Promise<OwingAccountRow[]> {
  return listAccountsOwing(db, limit);
}
