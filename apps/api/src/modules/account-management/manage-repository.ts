import type { Queryable } from '../../db/database.ts';
import { sqlInstant, type Clock } from '../../db/clock.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import type { AccountType, CustomerAccountRow } from '../accounts/service.ts';

/** SQL of opening, closing and changing accounts (opening.ts, closing.ts, tier-change.ts): an account row with its product's name and kind. */
export interface ManagedAccountRow extends CustomerAccountRow {
  product_name: string;
  product_kind: AccountType;
  closed_at: Date | null;
}

/**
 * One of the customer's accounts, open or closed; someone else's (or a malformed id) is not found.
 * With `lock`, the row is locked until the caller's transaction ends: a close and a tier change of
 * the same account wait for each other.
 */
export async function findCustomerAccount(
  db: Queryable,
  customerId: string,
  accountId: string,
  options: { lock?: boolean } = {},
): Promise<ManagedAccountRow | undefined> {
  if (!isUuid(accountId) || !isUuid(customerId)) return undefined;
  const [row] = await db.query<ManagedAccountRow>(
    `SELECT a.id, a.customer_id, a.type, a.number, a.name, a.status, a.ledger_account_id, a.owed_ledger_account_id, a.product_id,
            p.name AS product_name, p.kind AS product_kind, a.opened_at, a.closed_at
       FROM customer_accounts a JOIN deposit_products p ON p.id = a.product_id
      WHERE a.id = $1 AND a.customer_id = $2${options.lock ? ' FOR UPDATE OF a' : ''}`,
    [accountId, customerId],
  );
  return row;
}

/** Locks the customer's row: the accounts they hold change one request at a time. */
export async function lockCustomer(tx: Queryable, customerId: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId])).length === 1;
}

/** What still depends on an account and stops it closing; each count is of things still open. */
export interface AccountDependents {
  pending_deposits: number;
  pending_payments: number;
  held_payments: number;
  cards: number;
  loans: number;
  /** Active scheduled payments from the account, or to it (an own transfer's toAccountId). */
  scheduled_payments: number;
  /** Disputes about a payment of the account still open, or denied with their provisional credit still to be taken back. */
  open_disputes: number;
  other_open_checking: number;
}

export async function dependentsOf(db: Queryable, account: Pick<ManagedAccountRow, 'id' | 'customer_id'>): Promise<AccountDependents> {
  const [row] = await db.query<AccountDependents>(
    `SELECT
       (SELECT count(*)::int FROM payments p WHERE p.to_account_id = $1 AND p.kind = 'deposit' AND p.status IN ('creating', 'pending', 'in_review')) AS pending_deposits,
       (SELECT count(*)::int FROM payments p WHERE (p.from_account_id = $1 OR p.to_account_id = $1) AND p.kind <> 'deposit'
           AND p.status IN ('creating', 'pending')) AS pending_payments,
       (SELECT count(*)::int FROM payments p WHERE (p.from_account_id = $1 OR p.to_account_id = $1) AND p.kind <> 'deposit'
           AND p.status = 'in_review') AS held_payments,
       (SELECT count(*)::int FROM cards c WHERE c.linked_account_id = $1 AND c.status NOT IN ('closed', 'rejected')) AS cards,
       (SELECT count(*)::int FROM loans l WHERE l.checking_account_id = $1 AND l.status IN ('submitted', 'offered', 'active')) AS loans,
       (SELECT count(*)::int FROM scheduled_payments s WHERE s.status = 'active' AND (s.from_account_id = $1 OR s.payment ->> 'toAccountId' = $1::text))
         AS scheduled_payments,
       (SELECT count(*)::int FROM disputes d WHERE d.account_id = $1
           AND (d.status IN ('submitted', 'investigating', 'provisionally_credited') OR (d.reversal_on IS NOT NULL AND d.reversal_payment_id IS NULL)))
         AS open_disputes,
       (SELECT count(*)::int FROM customer_accounts a WHERE a.customer_id = $2 AND a.id <> $1 AND a.type = 'checking' AND a.status <> 'closed')
         AS other_open_checking`,
    [account.id, account.customer_id],
  );
  if (!row) throw new Error(`no dependents read for account ${account.id}`);
  return row;
}

/**
 * The interest an account has earned and not been paid: every day's exact accrual added up, in
 * whole cents (the fraction of a cent left over is never paid), less the interest already paid into it.
 */
export async function unpaidInterestCents(db: Queryable, accountId: string): Promise<bigint> {
  const [row] = await db.query<{ accrued_cents: string; paid_cents: string }>(
    `SELECT
       (SELECT coalesce(floor(sum(accrued_units) / 1335900000), 0)::text FROM interest_accruals WHERE account_id = $1) AS accrued_cents,
       (SELECT coalesce(sum(amount_cents), 0)::text FROM payments WHERE to_account_id = $1 AND kind = 'interest' AND status = 'completed') AS paid_cents`,
    [accountId],
  );
  if (!row) throw new Error(`no interest read for account ${accountId}`);
  const unpaid = BigInt(row.accrued_cents) - BigInt(row.paid_cents);
  return unpaid > 0n ? unpaid : 0n;
}

/** Closes the account; false when it was closed already. */
export async function markAccountClosed(tx: Queryable, accountId: string, clock?: Clock): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE customer_accounts SET status = 'closed', closed_at = coalesce($2::timestamptz, now()) WHERE id = $1 AND status <> 'closed' RETURNING id`,
    [accountId, sqlInstant(clock)],
  );
  return rows.length === 1;
}

/** The account becomes of another product, and takes its name. */
export async function setAccountProduct(tx: Queryable, accountId: string, product: { id: string; name: string }): Promise<void> {
  await tx.query(`UPDATE customer_accounts SET product_id = $2, name = $3 WHERE id = $1 AND status <> 'closed'`, [accountId, product.id, product.name]);
}

/** The customer's identity review was approved: only then may an account be opened. */
export async function identityApproved(db: Queryable, customerId: string): Promise<boolean> {
  const [row] = await db.query<{ approved: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM identity_reviews r WHERE r.customer_id = $1 AND r.status = 'approved') AS approved`,
    [customerId],
  );
  return row?.approved ?? false;
}

export async function customerExists(db: Queryable, customerId: string): Promise<boolean> {
  if (!isUuid(customerId)) return false;
  return (await db.query('SELECT 1 FROM customers WHERE id = $1', [customerId])).length === 1;
}

/** The customer an account belongs to, for staff routes that name the account alone. */
export async function ownerOfAccount(db: Queryable, accountId: string): Promise<string | undefined> {
  if (!isUuid(accountId)) return undefined;
  const [row] = await db.query<{ customer_id: string }>('SELECT customer_id FROM customer_accounts WHERE id = $1', [accountId]);
  return row?.customer_id;
}
