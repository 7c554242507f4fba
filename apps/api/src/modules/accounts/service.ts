import { randomUUID } from 'node:crypto';
import { defaultDepositProduct, depositProductOf } from '@strongroom/contracts/products.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { balanceOf, createAccounts } from '../../ledger/accounts.ts';
import { accountCodes, ledgers } from '../../ledger/codes.ts';
import { accountFlags } from '../../ledger/types.ts';
import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import { calendarDayIn } from '../../platform/business-calendar.ts';
import { newAccountNumber } from './account-number.ts';
import { shownAccountInterest, type AccountInterest } from './earnings.ts';
import { accountsPageOf } from './page-repository.ts';
import { owedCentsOf } from './owed.ts';
import {
  insertCustomerAccount,
  listAccountsToShow,
  listCustomerAccounts,
  type AccountType,
  type AccountToShow,
  type CustomerAccountRow,
} from './repository.ts';

/** The interest earned and fees paid in the bank's month and year, all the customer's accounts (earnings.ts): the dashboard's figures. */
export { customerEarnings, type CustomerEarnings } from './earnings.ts';
/** What opening another account (modules/account-management) needs: a fresh number and the row. */
export { newAccountNumber } from './account-number.ts';
export { insertCustomerAccount, type AccountType, type CustomerAccountRow } from './repository.ts';

/**
 * What an account owes the bank after a returned deposit (owed.ts): the payments module takes a
 * returned deposit back through these, and refuses payments out of an account that owes anything.
 */
export {
  accountsOwing,
  ensureOwedAccount,
  owedCents,
  owedCentsOf,
  owedRepaymentsOf,
  owingAmong,
  type OwedRepayment,
  type OwingAccount,
  type OwingLedgerAccounts,
} from './owed.ts';

/**
 * The two accounts every customer opens, each as the product they chose on a public page when it is
 * of its kind, or as the bank's first product of that kind (docs/decisions/054).
 */
function productsFor(chosen: string | null): { type: AccountType; name: string; slug: string; code: number }[] {
  const chosenProduct = depositProductOf(chosen);
  const productOf = (type: AccountType) => (chosenProduct?.type === type ? chosenProduct : defaultDepositProduct(type));
  return [
    { type: 'checking', name: productOf('checking').name, slug: productOf('checking').slug, code: accountCodes.customerChecking },
    { type: 'savings', name: productOf('savings').name, slug: productOf('savings').slug, code: accountCodes.customerSavings },
  ];
}

const accountNumberAttempts = 10;

export interface OpenedAccount {
  id: string;
  type: AccountType;
  number: string;
  ledgerAccountId: string;
}

/**
 * Opens a checking and a savings account, each on its own ledger account: a deposit account is the
 * bank's liability, credit-normal, and may never be overdrawn. Opening twice is harmless, even at
 * the same moment (an automatic approval and a member of staff): the customer's row is locked while
 * the accounts are looked for and inserted, so the second caller finds the first one's accounts.
 */
export async function openCustomerAccounts(db: Database, customerId: string): Promise<OpenedAccount[]> {
  const presentAccounts = (rows: CustomerAccountRow[]) =>
    rows.map((row) => ({ id: row.id, type: row.type, number: row.number, ledgerAccountId: row.ledger_account_id }));
  const existing = await listCustomerAccounts(db, customerId);
  if (existing.length > 0) return presentAccounts(existing);

  // Ledger accounts are created first (the ledger runs its own transaction); if another caller wins
  // the race below, these two stay empty and unused, which the ledger's invariants allow.
  const [customer] = await db.query<{ chosen_product: string | null }>('SELECT chosen_product FROM customers WHERE id = $1', [customerId]);
  const opened = productsFor(customer?.chosen_product ?? null).map((product) => ({ ...product, id: randomUUID(), ledgerAccountId: randomUUID() }));
  const outcomes = await createAccounts(
    db,
    opened.map((account) => ({ id: account.ledgerAccountId, ledger: ledgers.usd, code: account.code, flags: accountFlags.debitsMustNotExceedCredits })),
  );
  const failed = outcomes.find((outcome) => outcome.result !== 'ok');
  if (failed) throw new Error(`the ledger refused a new customer account: ${failed.result}`);

  const productIds = new Map(
    (
      await db.query<{ id: string; code: string }>('SELECT id, code FROM deposit_products WHERE code = ANY($1::text[])', [
        opened.map((account) => account.slug),
      ])
    ).map((row) => [row.code, row.id]),
  );
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
    const openedMeanwhile = await listCustomerAccounts(tx, customerId);
    if (openedMeanwhile.length > 0) return presentAccounts(openedMeanwhile);
    const result: OpenedAccount[] = [];
    for (const account of opened) {
      let number = newAccountNumber();
      let attempts = 1;
      while (
        !(await insertCustomerAccount(tx, {
          id: account.id,
          customerId,
          type: account.type,
          number,
          name: account.name,
          ledgerAccountId: account.ledgerAccountId,
          productId: productIdOf(productIds, account.slug),
        }))
      ) {
        if (++attempts > accountNumberAttempts) throw new Error('no free account number after several attempts');
        number = newAccountNumber();
      }
      result.push({ id: account.id, type: account.type, number, ledgerAccountId: account.ledgerAccountId });
    }
    return result;
  });
}

function productIdOf(productIds: ReadonlyMap<string, string>, slug: string): string {
  const id = productIds.get(slug);
  if (!id) throw new Error(`no deposit product ${slug} in the catalogue`);
  return id;
}

/** The ids of the customer's accounts that are not closed, oldest first: what their history lists. */
export async function customerAccountIds(db: Queryable, customerId: string): Promise<string[]> {
  return (await listCustomerAccounts(db, customerId)).map((account) => account.id);
}

export interface AccountWithBalance {
  id: string;
  type: AccountType;
  number: string;
  name: string;
  status: 'open' | 'closed';
  /** Open and its owner's identity approved: the seed shows an account "Inactive" until then. */
  active: boolean;
  productId: string;
  balanceCents: bigint;
  availableCents: bigint;
  pendingDepositsCents: bigint;
  pendingDepositsAvailableAt: Date | null;
}

/**
 * Balances come from the ledger's counters, never from a stored field (D8). What an account owes
 * after a returned deposit (owed.ts) is taken off both figures, so they can be below zero. An
 * account is active once its owner's identity is approved: `identityApproved` when the caller
 * knows it already, otherwise the review as read with the accounts, at the same moment.
 */
export async function accountsWithBalances(db: Database, customerId: string, identityApproved?: boolean): Promise<AccountWithBalance[]> {
  const recorded = await listAccountsToShow(db, customerId);
  const approved = identityApproved ?? recorded.identityApproved;
  return recorded.accounts.map((row) => accountWithBalance(row, approved));
}

function accountWithBalance(row: AccountToShow, identityApproved: boolean): AccountWithBalance {
  const balance = balanceOf(row.ledgerAccount);
  const owed = owedCentsOf(row.owedLedgerAccount);
  return {
    id: row.id,
    type: row.type,
    number: row.number,
    name: row.name,
    status: row.status === 'closed' ? 'closed' : 'open',
    // The seed shows an account inactive until the customer's identity is approved.
    active: identityApproved && row.status === 'active',
    productId: row.product_id,
    balanceCents: balance.balanceCents - owed,
    availableCents: balance.availableCents - owed,
    pendingDepositsCents: row.pending_total_cents ?? 0n,
    pendingDepositsAvailableAt: row.pending_available_at,
  };
}

export type AccountWithEarnings = AccountWithBalance & AccountInterest;

/**
 * `GET /accounts`: each account with its balances, its product, the rate its balance earns on the
 * bank's date and that rate's APY, and the interest it earned this month and this year
 * (earnings.ts), all read in one statement (page-repository.ts). `identityApproved` as for
 * `accountsWithBalances`.
 */
export async function accountsWithEarnings(
  db: Database,
  config: Pick<Config, 'bankTimeZone'>,
  customerId: string,
  identityApproved: boolean | undefined,
  clock: Clock = systemClock,
): Promise<AccountWithEarnings[]> {
  const page = await accountsPageOf(db, { customerId, today: calendarDayIn(config.bankTimeZone, clock.now()), timeZone: config.bankTimeZone });
  const approved = identityApproved ?? page.identityApproved;
  return page.accounts.map((row) => {
    const account = accountWithBalance(row, approved);
    return { ...account, ...shownAccountInterest({ ...account, earnings: row.earnings }, page.bankDate) };
  });
}
