import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Database } from '../db/database.ts';
import { createAccounts, lookupAccounts } from '../ledger/accounts.ts';
import { checkLedger } from '../ledger/check-ledger.ts';
import { accountCodes, ledgers, operatorAccounts, transferCodes } from '../ledger/codes.ts';
import { createTransfers } from '../ledger/create-transfers.ts';
import type { CreateTransferOutcome } from '../ledger/result-codes.ts';
import { accountFlags, type LedgerAccount, type TransferInput } from '../ledger/types.ts';

/** Shared by the ledger's tests: real accounts, real transfers, nothing mocked. */

export const usd = ledgers.usd;

/** A customer checking account that may not be overdrawn, funded from bank capital when asked. */
export async function openCustomerAccount(db: Database, fundingCents = 0n): Promise<string> {
  const id = randomUUID();
  const [outcome] = await createAccounts(db, [{ id, ledger: usd, code: accountCodes.customerChecking, flags: accountFlags.debitsMustNotExceedCredits }]);
  expect(outcome?.result).toBe('ok');
  if (fundingCents > 0n) await fundAccount(db, id, fundingCents);
  return id;
}

export async function fundAccount(db: Database, accountId: string, amountCents: bigint): Promise<void> {
  const outcome = await createOne(db, {
    id: randomUUID(),
    debitAccountId: operatorAccounts.bankCapital,
    creditAccountId: accountId,
    amountCents,
    ledger: usd,
    code: transferCodes.accountFunding,
  });
  expect(outcome.result).toBe('ok');
}

export async function createOne(db: Database, transfer: TransferInput): Promise<CreateTransferOutcome> {
  const [outcome] = await createTransfers(db, [transfer]);
  if (!outcome) throw new Error('createTransfers answered nothing');
  return outcome;
}

export async function accountOf(db: Database, id: string): Promise<LedgerAccount> {
  const [account] = await lookupAccounts(db, [id]);
  if (!account) throw new Error(`account ${id} not found`);
  return account;
}

/** A posted transfer between two accounts, with every required field filled in. */
export function payment(debitAccountId: string, creditAccountId: string, amountCents: bigint): TransferInput {
  return { id: randomUUID(), debitAccountId, creditAccountId, amountCents, ledger: usd, code: transferCodes.internalTransfer };
}

export async function expectLedgerConsistent(db: Database): Promise<void> {
  const check = await checkLedger(db);
  expect(check.violations).toEqual([]);
  expect(check.ok).toBe(true);
}
