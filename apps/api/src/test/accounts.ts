import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import type { Database } from '../db/database.ts';
import { balanceOf, lookupAccounts } from '../ledger/accounts.ts';
import type { PayingCustomer } from './payments.ts';

/** The seed's six products (migration 0041), by the ids the catalogue fixes. */
export const productIds = {
  easyChecking: '00000000-0000-4000-8000-00000000d001',
  goldChecking: '00000000-0000-4000-8000-00000000d002',
  platinumChecking: '00000000-0000-4000-8000-00000000d003',
  standardSavings: '00000000-0000-4000-8000-00000000d004',
  platinumSelectSavings: '00000000-0000-4000-8000-00000000d005',
  packageSavings: '00000000-0000-4000-8000-00000000d006',
} as const;

/** The balance of a customer account, read from its ledger account (never from an answer). */
export async function ledgerBalanceCents(db: Database, accountId: string): Promise<bigint> {
  const [row] = await db.query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]);
  if (!row) throw new Error(`no account ${accountId}`);
  const [ledgerAccount] = await lookupAccounts(db, [row.ledger_account_id]);
  if (!ledgerAccount) throw new Error(`no ledger account for ${accountId}`);
  return balanceOf(ledgerAccount).balanceCents;
}

export function openRequest(who: PayingCustomer, body: object, key: string = randomUUID()) {
  return who.browser.request({ method: 'POST', url: '/api/v1/accounts', payload: body, headers: { 'idempotency-key': key } });
}

/** Opens an account of `productId` funded from checking, expecting it to open. */
export async function openFromChecking(who: PayingCustomer, productId: string, openingDepositCents: number): Promise<ManagedAccount> {
  const response = await openRequest(who, { productId, fromAccountId: who.checking.id, openingDepositCents, acceptDisclosure: true });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ account: ManagedAccount }>().account;
}

export function closeRequest(who: PayingCustomer, accountId: string, toAccountId: string) {
  return who.browser.post(`/api/v1/accounts/${accountId}/close`, { toAccountId });
}
