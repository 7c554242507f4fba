import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { RequestActor } from '../../platform/request-actor.ts';
import { centsToJson } from '../../platform/money.ts';
import { bankDate } from '../../platform/bank-date.ts';
import type { requestPayment } from '../payments/service.ts';
import { findProduct } from '../products/service.ts';
import { findCustomerAccount, ownerOfAccount, type ManagedAccountRow } from './manage-repository.ts';
import { owedCentsOf } from '../accounts/service.ts';

/** What opening, closing and changing an account need (opening.ts, closing.ts, tier-change.ts). */
export interface AccountManagementDependencies {
  db: Database;
  config: Pick<Config, 'bankTimeZone'>;
  /** The deposit flow an opening deposit from another bank goes through (payments/service.ts requestPayment). */
  payments: Parameters<typeof requestPayment>[0];
  liveEvents?: LiveEvents;
  /** Dates the ledger's transfers and the bank's today in tests; production reads the database's and the machine's time. */
  clock?: Clock;
}

/**
 * Who asks for the change, and for which customer: the customer themselves, or a member of staff
 * with the reason they gave (recorded in the audit entry).
 */
export interface AccountRequester {
  actor: RequestActor;
  customerId: string;
  reason?: string;
}

export const noSuchAccount = 'No such account';

/** The product of this id with the terms in force on the bank's date; an unknown one is not found. */
export async function productOnBankDate(dependencies: AccountManagementDependencies, productId: string): Promise<Product> {
  const day = await bankDate(dependencies.db, dependencies.config, dependencies.clock);
  const product = await findProduct(dependencies.db, productId, day);
  if (!product) throw new AppError('not_found', 'No such account type');
  return product;
}

/** One of the customer's own open accounts; someone else's, a missing one and a closed one answer alike. */
export async function openAccountOf(db: Queryable, customerId: string, accountId: string, options: { lock?: boolean } = {}): Promise<ManagedAccountRow> {
  const account = await findCustomerAccount(db, customerId, accountId, options);
  if (!account || account.status === 'closed') throw new AppError('not_found', noSuchAccount);
  return account;
}

/** The account as these requests answer it, its balances read from the ledger (less what it owes the bank). */
export async function presentManagedAccount(db: Queryable, account: ManagedAccountRow): Promise<ManagedAccount> {
  const ids = account.owed_ledger_account_id ? [account.ledger_account_id, account.owed_ledger_account_id] : [account.ledger_account_id];
  const ledgerAccounts = new Map((await lookupAccounts(db, ids)).map((row) => [row.id, row]));
  const deposit = ledgerAccounts.get(account.ledger_account_id);
  if (!deposit) throw new Error(`customer account ${account.id} has no ledger account`);
  const balance = balanceOf(deposit);
  const owed = account.owed_ledger_account_id ? owedCentsOf(ledgerAccounts.get(account.owed_ledger_account_id)) : 0n;
  return {
    id: account.id,
    type: account.type,
    number: account.number,
    name: account.name,
    productId: account.product_id,
    productName: account.product_name,
    status: account.status === 'closed' ? 'closed' : 'open',
    balanceCents: centsToJson(balance.balanceCents - owed),
    availableCents: centsToJson(balance.availableCents - owed),
    openedAt: account.opened_at.toISOString(),
    closedAt: account.closed_at?.toISOString() ?? null,
  };
}

/** The account read again in `db` (after a change) and presented. */
export async function presentAccountById(db: Queryable, customerId: string, accountId: string): Promise<ManagedAccount> {
  const account = await findCustomerAccount(db, customerId, accountId);
  if (!account) throw new Error(`account ${accountId} vanished`);
  return presentManagedAccount(db, account);
}

/** The customer's screens hear that their accounts changed. */
export function publishAccountsChanged(dependencies: Pick<AccountManagementDependencies, 'liveEvents'>, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'accounts');
  dependencies.liveEvents?.publish(customerId, 'notifications');
}

/** The details every audit entry of these actions carries: the staff member's reason, when staff acted. */
export function reasonDetails(requester: AccountRequester): Record<string, string> {
  return requester.reason === undefined ? {} : { reason: requester.reason, customerId: requester.customerId };
}

/** The customer an account belongs to, for staff routes that name the account alone; an unknown account is not found. */
export async function accountOwner(db: Queryable, accountId: string): Promise<string> {
  const customerId = await ownerOfAccount(db, accountId);
  if (!customerId) throw new AppError('not_found', noSuchAccount);
  return customerId;
}
