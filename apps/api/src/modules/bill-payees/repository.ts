import type { BillCategory, BillerPaymentMethod } from '@strongroom/contracts/billers.ts';
import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';

/** A customer's bill payee (migration 0046) with the biller's name and category. */
export interface BillPayeeRow {
  id: string;
  biller_id: string;
  biller_name: string;
  category: BillCategory;
  nickname: string;
  account_ending: string;
  created_at: Date;
}

/** What paying a payee needs: the biller as it is now (it may have been made inactive), how the bank pays it, and the customer's number there. */
export interface PayeeToPayRow extends BillPayeeRow {
  deleted: boolean;
  biller_active: boolean;
  payment_method: BillerPaymentMethod;
  routing_number: string | null;
  biller_account_number: string | null;
  account_number_encrypted: Buffer | Uint8Array;
}

export interface NewBillPayee {
  id: string;
  customerId: string;
  billerId: string;
  nickname: string;
  accountNumberEncrypted: Buffer;
  accountKey: Buffer;
  accountEnding: string;
}

const payeeColumns = 'p.id, p.biller_id, b.name AS biller_name, b.category, p.nickname, p.account_ending, p.created_at';

/** The customer's payees not deleted, by nickname (then id, so equal nicknames keep one order), at most `limit`. */
export function listBillPayeeRows(db: Queryable, customerId: string, limit: number): Promise<BillPayeeRow[]> {
  return db.query<BillPayeeRow>(
    `SELECT ${payeeColumns} FROM bill_payees p JOIN billers b ON b.id = p.biller_id
     WHERE p.customer_id = $1 AND p.deleted_at IS NULL ORDER BY p.nickname, p.id LIMIT $2`,
    [customerId, limit],
  );
}

export async function countBillPayees(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM bill_payees WHERE customer_id = $1 AND deleted_at IS NULL', [customerId]);
  return row?.count ?? 0;
}

/** Inserts unless the customer has this biller and account number already (not deleted): the new row, or undefined. */
export async function insertBillPayee(db: Queryable, payee: NewBillPayee): Promise<BillPayeeRow | undefined> {
  const [inserted] = await db.query<{ id: string }>(
    `INSERT INTO bill_payees (id, customer_id, biller_id, nickname, account_number_encrypted, account_key, account_ending)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (customer_id, biller_id, account_key) WHERE deleted_at IS NULL DO NOTHING
     RETURNING id`,
    [payee.id, payee.customerId, payee.billerId, payee.nickname, payee.accountNumberEncrypted, payee.accountKey, payee.accountEnding],
  );
  if (!inserted) return undefined;
  const [row] = await db.query<BillPayeeRow>(`SELECT ${payeeColumns} FROM bill_payees p JOIN billers b ON b.id = p.biller_id WHERE p.id = $1`, [inserted.id]);
  if (!row) throw new Error(`bill payee ${inserted.id} was inserted and not found`);
  return row;
}

/** Marks the customer's payee deleted: the deleted row (for its audit entry), or undefined when the customer has no such payee. */
export async function softDeleteBillPayee(db: Queryable, customerId: string, id: string): Promise<{ biller_id: string; account_ending: string } | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<{ biller_id: string; account_ending: string }>(
    'UPDATE bill_payees SET deleted_at = now() WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING biller_id, account_ending',
    [id, customerId],
  );
  return row;
}

/** The customer's payee, deleted or not, with its biller; undefined when it is not this customer's (or there is none). */
export async function findPayeeToPay(db: Queryable, customerId: string, id: string): Promise<PayeeToPayRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<PayeeToPayRow>(
    `SELECT ${payeeColumns}, p.deleted_at IS NOT NULL AS deleted, b.active AS biller_active, b.payment_method, b.routing_number,
            b.account_number AS biller_account_number, p.account_number_encrypted
     FROM bill_payees p JOIN billers b ON b.id = p.biller_id WHERE p.id = $1 AND p.customer_id = $2`,
    [id, customerId],
  );
  return row;
}

/**
 * Whether the customer may pay bills: their identity was approved and they have an open account,
 * as a payment's source account is checked (payments' planners/checks.ts).
 */
export async function mayPayBills(db: Queryable, customerId: string): Promise<boolean> {
  const [row] = await db.query<{ approved: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM identity_reviews r WHERE r.customer_id = $1 AND r.status = 'approved')
        AND EXISTS (SELECT 1 FROM customer_accounts a WHERE a.customer_id = $1 AND a.status = 'active') AS approved`,
    [customerId],
  );
  return row?.approved === true;
}

/** Locks the customer's row, so that two additions at once cannot both pass the count. */
export async function lockCustomer(db: Queryable, customerId: string): Promise<void> {
  await db.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
}
