import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import { accountColumnsAs, accountFromColumns } from '../../ledger/rows.ts';
import type { LedgerAccount } from '../../ledger/types.ts';

export type AccountType = 'checking' | 'savings';

export interface CustomerAccountRow {
  id: string;
  customer_id: string;
  type: AccountType;
  number: string;
  name: string;
  status: 'active' | 'inactive' | 'closed';
  ledger_account_id: string;
  owed_ledger_account_id: string | null;
  product_id: string;
  opened_at: Date;
}

const columns = 'id, customer_id, type, number, name, status, ledger_account_id, owed_ledger_account_id, product_id, opened_at';

export async function insertCustomerAccount(
  db: Queryable,
  account: { id: string; customerId: string; type: AccountType; number: string; name: string; ledgerAccountId: string; productId: string },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO customer_accounts (id, customer_id, type, number, name, ledger_account_id, product_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (number) DO NOTHING RETURNING id`,
    [account.id, account.customerId, account.type, account.number, account.name, account.ledgerAccountId, account.productId],
  );
  return rows.length === 1;
}

/**
 * A customer's open accounts, oldest first. The lists asked for at the same moment (every signed-in
 * page reads one) come from one statement (db/batched-lookup.ts, decision 044).
 */
export function listCustomerAccounts(db: Queryable, customerId: string): Promise<CustomerAccountRow[]> {
  // A malformed id has no accounts, and never joins (and fails) a statement shared with others.
  return uuidPattern.test(customerId) ? listAccountsBatched(db, customerId.toLowerCase()) : Promise.resolve([]);
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function readAccountLists(db: Queryable, customerIds: readonly string[]): Promise<CustomerAccountRow[][]> {
  const rows = await db.query<CustomerAccountRow & { position: string }>(
    `SELECT w.position::text AS position, ${columns
      .split(', ')
      .map((column) => `a.${column}`)
      .join(', ')}
       -- The ids through a subquery PostgreSQL does not flatten: it keeps the generic plan; each
       -- customer's accounts a probe of their index (OFFSET 0 keeps the LATERAL from being made a
       -- join, which that plan hashes over a read of the whole table, decision 081).
       FROM (SELECT $1::uuid[] AS ids OFFSET 0) AS batch
       CROSS JOIN LATERAL unnest(batch.ids) WITH ORDINALITY AS w (customer_id, position)
       CROSS JOIN LATERAL (SELECT * FROM customer_accounts a WHERE a.customer_id = w.customer_id AND a.status <> 'closed' OFFSET 0) a
      ORDER BY w.position, a.opened_at, a.type`,
    [customerIds],
    { name: 'customer_accounts_by_customers' },
  );
  const lists: CustomerAccountRow[][] = customerIds.map(() => []);
  for (const { position, ...account } of rows) lists[Number(position) - 1]?.push(account);
  return lists;
}

const listAccountsBatched = batchedPerDatabase<string, CustomerAccountRow[]>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (customerIds) => readAccountLists(db, customerIds) }),
  async (db, customerId) => (await readAccountLists(db, [customerId]))[0] ?? [],
);

/** A customer account as it is shown: with its ledger accounts and the deposits into it that have not cleared yet. */
export interface AccountToShow extends CustomerAccountRow {
  ledgerAccount: LedgerAccount;
  /** What the account owes the bank, once it has owed anything (owed.ts). */
  owedLedgerAccount: LedgerAccount | undefined;
  /** The pending deposits' sum, null when there is none. */
  pending_total_cents: bigint | null;
  /** When the last of them clears. */
  pending_available_at: Date | null;
}

/** A customer's open accounts, oldest first, and whether their identity review is approved, as of one moment. */
export interface AccountsToShow {
  identityApproved: boolean;
  accounts: AccountToShow[];
}

/**
 * What showing a customer's accounts needs, in one statement: their latest identity review (an
 * account is active only once it is approved), their open accounts, each account's ledger
 * accounts (its balances, read with the ledger's own columns and checks) and the deposits into it
 * that have not cleared yet. The customers asked for at the same moment are read together
 * (db/batched-lookup.ts, decision 044): every accounts page reads them, and one statement instead
 * of four takes three kinds of statement off the page (decision 082).
 */
export function listAccountsToShow(db: Queryable, customerId: string): Promise<AccountsToShow> {
  // A malformed id has no accounts, and never joins (and fails) a statement shared with others.
  return uuidPattern.test(customerId) ? accountsToShowBatched(db, customerId.toLowerCase()) : Promise.resolve({ identityApproved: false, accounts: [] });
}

export type AccountToShowRow = CustomerAccountRow &
  Pick<AccountToShow, 'pending_total_cents' | 'pending_available_at'> & { position: string; identity_approved: boolean };

/**
 * The columns and joins of a customer's accounts as they are shown, for each customer `w` of a
 * batch (its `customer_id`): shared by the accounts to show and the accounts page (page-repository.ts).
 * Each read is a probe of an index that no plan can turn into a read of the whole table (decision
 * 081). A customer with no open account still gives a row, for their review.
 */
export const shownAccountsColumns = `coalesce(r.status = 'approved', false) AS identity_approved,
            ${columns
              .split(', ')
              .map((column) => `a.${column}`)
              .join(', ')},
            ${accountColumnsAs('l', 'ledger')}, ${accountColumnsAs('o', 'owed')},
            d.total_cents AS pending_total_cents, d.available_at AS pending_available_at`;

export const shownAccountsJoins = `LEFT JOIN LATERAL (
         SELECT status FROM identity_reviews WHERE customer_id = w.customer_id ORDER BY submitted_at DESC LIMIT 1
       ) r ON true
       LEFT JOIN LATERAL (SELECT * FROM customer_accounts a WHERE a.customer_id = w.customer_id AND a.status <> 'closed' OFFSET 0) a ON true
       LEFT JOIN LATERAL (SELECT * FROM ledger_accounts l WHERE l.id = a.ledger_account_id LIMIT 1) l ON true
       LEFT JOIN LATERAL (SELECT * FROM ledger_accounts o WHERE o.id = a.owed_ledger_account_id LIMIT 1) o ON true
       LEFT JOIN LATERAL (
         SELECT sum(p.amount_cents)::bigint AS total_cents, max(p.settle_at) AS available_at
           FROM payments p
          WHERE p.customer_id = w.customer_id AND p.to_account_id = a.id AND p.kind = 'deposit' AND p.status = 'pending'
       ) d ON a.id IS NOT NULL`;

/** An account of `shownAccountsColumns`' row; undefined for the row of a customer with no open account. */
export function accountToShowOf(row: AccountToShowRow | { id: null }): AccountToShow | undefined {
  if (row.id === null) return undefined;
  const ledgerAccount = accountFromColumns(row, 'ledger');
  if (!ledgerAccount) throw new Error(`customer account ${row.id} has no ledger account`);
  return {
    id: row.id,
    customer_id: row.customer_id,
    type: row.type,
    number: row.number,
    name: row.name,
    status: row.status,
    ledger_account_id: row.ledger_account_id,
    owed_ledger_account_id: row.owed_ledger_account_id,
    product_id: row.product_id,
    opened_at: row.opened_at,
    ledgerAccount,
    owedLedgerAccount: accountFromColumns(row, 'owed'),
    pending_total_cents: row.pending_total_cents,
    pending_available_at: row.pending_available_at,
  };
}

async function readAccountsToShow(db: Queryable, customerIds: readonly string[]): Promise<AccountsToShow[]> {
  const rows = await db.query<AccountToShowRow | { position: string; identity_approved: boolean; id: null }>(
    `SELECT w.position::text AS position, ${shownAccountsColumns}
       -- As customer_accounts_by_customers: the ids through a subquery PostgreSQL does not flatten.
       FROM (SELECT $1::uuid[] AS ids OFFSET 0) AS batch
       CROSS JOIN LATERAL unnest(batch.ids) WITH ORDINALITY AS w (customer_id, position)
       ${shownAccountsJoins}
      ORDER BY w.position, a.opened_at, a.type`,
    [customerIds],
    { name: 'customer_accounts_to_show' },
  );
  const lists: AccountsToShow[] = customerIds.map(() => ({ identityApproved: false, accounts: [] }));
  for (const row of rows) {
    const list = lists[Number(row.position) - 1];
    if (!list) continue;
    list.identityApproved = row.identity_approved;
    const account = accountToShowOf(row);
    if (account) list.accounts.push(account);
  }
  return lists;
}

const accountsToShowBatched = batchedPerDatabase<string, AccountsToShow>(
  // Two statements in flight, not four: only pages read it, and larger batches cost a read less (decision 081).
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 2, run: (customerIds) => readAccountsToShow(db, customerIds) }),
  async (db, customerId) => (await readAccountsToShow(db, [customerId]))[0] ?? { identityApproved: false, accounts: [] },
);

/** The two ledger accounts of a customer account: its deposit account, and what it owes the bank once it has owed anything. */
export interface OwingAccount {
  id: string;
  ledger_account_id: string;
  owed_ledger_account_id: string | null;
}

export interface OwingAccountRow extends OwingAccount {
  customer_id: string;
}

/** Records the owed ledger account the first time one is created; a second caller changes nothing. */
export async function setOwedLedgerAccount(db: Queryable, accountId: string, owedLedgerAccountId: string): Promise<void> {
  await db.query('UPDATE customer_accounts SET owed_ledger_account_id = $2 WHERE id = $1 AND owed_ledger_account_id IS NULL', [accountId, owedLedgerAccountId]);
}

/** Of these deposit ledger accounts, those whose owed ledger account has a debit balance now. */
export function listOwingAmong(
  db: Queryable,
  depositLedgerAccountIds: readonly string[],
): Promise<{ depositLedgerAccountId: string; owedLedgerAccountId: string }[]> {
  return db.query<{ depositLedgerAccountId: string; owedLedgerAccountId: string }>(
    `SELECT a.ledger_account_id AS "depositLedgerAccountId", a.owed_ledger_account_id AS "owedLedgerAccountId" FROM customer_accounts a
     JOIN ledger_accounts o ON o.id = a.owed_ledger_account_id
     WHERE a.ledger_account_id = ANY($1::uuid[]) AND o.debits_posted > o.credits_posted`,
    [depositLedgerAccountIds],
  );
}

/** Accounts whose owed ledger account has a debit balance: they owe the bank something. */
export async function listAccountsOwing(db: Queryable, limit: number): Promise<OwingAccountRow[]> {
  return db.query<OwingAccountRow>(
    `SELECT a.id, a.customer_id, a.ledger_account_id, a.owed_ledger_account_id FROM customer_accounts a
     JOIN ledger_accounts o ON o.id = a.owed_ledger_account_id
     WHERE o.debits_posted > o.credits_posted ORDER BY a.id LIMIT $1`,
    [limit],
  );
}
