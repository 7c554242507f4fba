import type { Queryable } from '../../db/database.ts';

/** One of the accounts a consent covers, as the FDX descriptor shows it. */
export interface ConsentedAccountRow {
  id: string;
  type: 'checking' | 'savings';
  number: string;
  name: string;
  product_name: string;
  status: 'active' | 'inactive';
}

/**
 * The accounts of `accountIds` that are the customer's and not closed, in the order the bank's own
 * screens list them (oldest first). An id of another customer's account, of a closed one or of
 * none at all is simply not among them: the caller cannot tell which it was.
 */
export async function listConsentedAccounts(db: Queryable, customerId: string, accountIds: readonly string[]): Promise<ConsentedAccountRow[]> {
  if (accountIds.length === 0) return [];
  return db.query<ConsentedAccountRow>(
    `SELECT a.id, a.type, a.number, a.name, a.status, p.name AS product_name
       FROM customer_accounts a
       JOIN deposit_products p ON p.id = a.product_id
      WHERE a.customer_id = $1 AND a.id = ANY($2::uuid[]) AND a.status <> 'closed'
      ORDER BY a.opened_at, a.type, a.id`,
    [customerId, [...accountIds]],
  );
}
