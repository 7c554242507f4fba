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
  opened_at: Date;
}

const columns = 'id, customer_id, type, number, name, status, ledger_account_id, owed_ledger_account_id, opened_at';

export async function insertCustomerAccount(
  db: Queryable,
  account: { id: string; customerId: string; type: AccountType; number: string; name: string; ledgerAccountId: string },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO customer_accounts (id, customer_id, type, number, name, ledger_account_id)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (number) DO NOTHING RETURNING id`,
    [account.id, account.customerId, account.type, account.number, account.name, account.ledgerAccountId],
  );
  return rows.length === 1;
}

export async function listCustomerAccounts(db: Queryable, customerId: string): Promise<CustomerAccountRow[]> {
  return db.query<CustomerAccountRow>(
    `SELECT ${columns} FROM customer_accounts WHERE customer_id = $1 AND status <> 'closed' ORDER BY opened_at, type`,
    [customerId],
    {
      name: 'customer_accounts_by_customer',
    },
  );
}

export interface PendingDepositsRow {
  account_id: string;
  total_cents: bigint;
  available_at: Date | null;
}

/** Deposits into the customer's accounts that have not cleared yet, summed per account. */
export async function pendingDepositsByAccount(db: Queryable, customerId: string): Promise<PendingDepositsRow[]> {
  return db.query<PendingDepositsRow>(
    `SELECT to_account_id AS account_id, sum(amount_cents)::bigint AS total_cents, max(settle_at) AS available_at
     FROM payments WHERE customer_id = $1 AND kind = 'deposit' AND status = 'pending' GROUP BY to_account_id`,
    [customerId],
  );
}

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

/** Accounts whose owed ledger account has a debit balance: they owe the bank something. */
export async function listAccountsOwing(db: Queryable, limit: number): Promise<OwingAccountRow[]> {
  return db.query<OwingAccountRow>(
    `SELECT a.id, a.customer_id, a.ledger_account_id, a.owed_ledger_account_id FROM customer_accounts a
     JOIN ledger_accounts o ON o.id = a.owed_ledger_account_id
     WHERE o.debits_posted > o.credits_posted ORDER BY a.id LIMIT $1`,
    [limit],
  );
}
