import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts, lookupAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers, transferCodes } from '../../ledger/codes.ts';
import { createTransfers, createTransfersIn } from '../../ledger/create-transfers.ts';
import type { CreateTransferOutcome } from '../../ledger/result-codes.ts';
import { accountFlags, type LedgerAccount, type TransferInput } from '../../ledger/types.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { listAccountsOwing, listOwingAmong, setOwedLedgerAccount, type OwingAccount, type OwingAccountRow } from './repository.ts';

export type { OwingAccount, OwingAccountRow } from './repository.ts';

/**
 * A customer's deposit account may never be overdrawn in the ledger (docs/ledger.md: its limit flag
 * refuses it). When another bank returns a deposit after it cleared and the money is already
 * spent, the bank takes it back from a second ledger account of the customer account: what it owes
 * the bank, debit-normal, created the first time it is needed. The balance the customer sees is
 * the account's balance minus what it owes, so it can be below zero; money that comes in later
 * pays what is owed first (`repayOwed`), and nothing goes out while anything is owed.
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

/**
 * Pays what the account owes from what it has available, as far as it goes. Balances are read
 * again each time and the ledger's two limit flags refuse both an overdraft and repaying more than
 * is owed, so two runs at once can never take too much: the loser's transfer is refused and the
 * next run tries again. Answers the cents repaid.
 */
export async function repayOwed(db: Database, account: OwingAccount): Promise<bigint> {
  if (!account.owed_ledger_account_id) return 0n;
  const [deposit, owed] = await lookupAccounts(db, [account.ledger_account_id, account.owed_ledger_account_id]);
  if (!deposit || !owed) throw new Error(`customer account ${account.id} is missing a ledger account`);
  const owedNow = owedCentsOf(owed);
  const available = balanceOf(deposit).availableCents;
  const amountCents = owedNow < available ? owedNow : available;
  if (amountCents <= 0n) return 0n;
  const [outcome] = await createTransfers(db, [
    { id: randomUUID(), debitAccountId: deposit.id, creditAccountId: owed.id, amountCents, ledger: ledgers.usd, code: transferCodes.owedRepayment },
  ]);
  if (outcome?.result === 'ok') return amountCents;
  if (outcome?.result === 'exceeds_credits' || outcome?.result === 'exceeds_debits') return 0n;
  throw new Error(`the ledger refused repaying what account ${account.id} owes: ${outcome?.result ?? 'no result'}`);
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

/** How a caller writes transfers in its transaction: the ledger's own, or its batcher's (which dates them by its clock). */
export type TransfersWriter = (tx: Queryable, transfers: readonly TransferInput[]) => Promise<CreateTransferOutcome[]>;

/**
 * Money that arrived pays what the account owes in the transaction that brought it (issue 30 item 6;
 * decision 052): the caller has just credited each deposit account in `tx`, so the ledger holds that
 * account's row lock until the commit, and nothing can spend from it or repay from it meanwhile. The
 * available balance and the debt read now therefore still hold when the repayment is written (a
 * return arriving at the same moment only makes the debt larger), and the repayment cannot be
 * refused. Each account repays as much as it can: the smaller of the debt and what is available.
 * The caller retries its transaction on a write conflict, as for any ledger write in a transaction.
 * Answers the cents repaid.
 */
export async function repayOwedIn(tx: Queryable, owing: readonly OwingLedgerAccounts[], write: TransfersWriter = createTransfersIn): Promise<bigint> {
  if (owing.length === 0) return 0n;
  const accounts = new Map(
    (
      await lookupAccounts(
        tx,
        owing.flatMap((pair) => [pair.depositLedgerAccountId, pair.owedLedgerAccountId]),
      )
    ).map((account) => [account.id, account]),
  );
  const repayments = owing.flatMap((pair) => {
    const deposit = accounts.get(pair.depositLedgerAccountId);
    const owed = accounts.get(pair.owedLedgerAccountId);
    if (!deposit || !owed) throw new Error(`the owing account ${pair.depositLedgerAccountId} is missing a ledger account`);
    const owedNow = owedCentsOf(owed);
    const available = balanceOf(deposit).availableCents;
    const amountCents = owedNow < available ? owedNow : available;
    if (amountCents <= 0n) return [];
    return [{ id: randomUUID(), debitAccountId: deposit.id, creditAccountId: owed.id, amountCents, ledger: ledgers.usd, code: transferCodes.owedRepayment }];
  });
  if (repayments.length === 0) return 0n;
  const outcomes = await write(tx, repayments);
  outcomes.forEach((outcome, index) => {
    if (outcome.result !== 'ok') throw new Error(`the ledger refused repaying what ${repayments[index]?.debitAccountId} owes: ${outcome.result}`);
  });
  return repayments.reduce((sum, repayment) => sum + repayment.amountCents, 0n);
}

/** Accounts that owe something and may have money to pay it with; the payments sweep repays them. */
export async function accountsOwing(db: Queryable, limit: number): Promise<OwingAccountRow[]> {
  return listAccountsOwing(db, limit);
}
