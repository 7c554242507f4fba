import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';

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

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

export interface PendingDepositsRow {
  account_id: string;
  total_cents: bigint;
  available_at: Date | null;
}

/**
 * Deposits into the customer's accounts that have not cleared yet, summed per account. The
 * customers asked for at the same moment are read in one statement (db/batched-lookup.ts,
 * decision 044): every accounts page reads them.
 */
export function pendingDepositsByAccount(db: Queryable, customerId: string): Promise<PendingDepositsRow[]> {
  return pendingDepositsBatched(db, customerId);
}

async function readPendingDeposits(db: Queryable, customerIds: readonly string[]): Promise<PendingDepositsRow[][]> {
  const rows = await db.query<PendingDepositsRow & { customer_id: string }>(
    `SELECT p.customer_id, p.to_account_id AS account_id, sum(p.amount_cents)::bigint AS total_cents, max(p.settle_at) AS available_at
     FROM unnest($1::uuid[]) AS wanted (id) JOIN payments p ON p.customer_id = wanted.id
     WHERE p.kind = 'deposit' AND p.status = 'pending' GROUP BY p.customer_id, p.to_account_id`,
    [[...new Set(customerIds)]],
    // Prepared once per connection, not planned at each call (0.1 ms).
    { name: 'accounts_pending_deposits_many' },
  );
  const byCustomer = new Map<string, PendingDepositsRow[]>();
  for (const { customer_id, ...row } of rows) byCustomer.set(customer_id, [...(byCustomer.get(customer_id) ?? []), row]);
  return customerIds.map((customerId) => byCustomer.get(customerId) ?? []);
}

// Two statements in flight, not four: only pages read it, and larger batches cost a read less (decision 081).
const pendingDepositsBatched = batchedPerDatabase<string, PendingDepositsRow[]>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 2, run: (customerIds) => readPendingDeposits(db, customerIds) }),
  async (db, customerId) => (await readPendingDeposits(db, [customerId]))[0] ?? [],
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
