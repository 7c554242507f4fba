import type { BillCategory, BillerPaymentMethod } from '@strongroom/contracts/billers.ts';
import type { Queryable } from '../../db/database.ts';

/** A row of `billers` (migration 0045). */
export interface BillerRow {
  id: string;
  name: string;
  category: BillCategory;
  account_number_pattern: string;
  account_number_example: string;
  payment_method: BillerPaymentMethod;
  routing_number: string | null;
  account_number: string | null;
  active: boolean;
}

/** A biller's fields as written, the id aside. */
export interface BillerFields {
  name: string;
  category: BillCategory;
  accountNumberPattern: string;
  accountNumberExample: string;
  paymentMethod: BillerPaymentMethod;
  routingNumber: string | null;
  accountNumber: string | null;
  active: boolean;
}

const columns = 'id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number, active';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Billers by name (then id, so equal names keep one order); customers' lists ask for active ones only. */
export function listBillerRows(db: Queryable, filter: { category?: BillCategory; activeOnly: boolean }): Promise<BillerRow[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (filter.category) {
    values.push(filter.category);
    conditions.push(`category = $${values.length}`);
  }
  if (filter.activeOnly) conditions.push('active');
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return db.query<BillerRow>(`SELECT ${columns} FROM billers ${where} ORDER BY name, id`, values);
}

/** One biller by id, active or not; undefined for an unknown (or malformed) id. */
export async function findBillerRow(db: Queryable, id: string): Promise<BillerRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const [row] = await db.query<BillerRow>(`SELECT ${columns} FROM billers WHERE id = $1`, [id]);
  return row;
}

/** Locks the biller's row until the transaction ends: changes to one biller are made one at a time. */
export async function lockBillerRow(tx: Queryable, id: string): Promise<BillerRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const [row] = await tx.query<BillerRow>(`SELECT ${columns} FROM billers WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

export async function insertBiller(db: Queryable, id: string, fields: BillerFields): Promise<BillerRow> {
  const [row] = await db.query<BillerRow>(
    `INSERT INTO billers (id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${columns}`,
    [
      id,
      fields.name,
      fields.category,
      fields.accountNumberPattern,
      fields.accountNumberExample,
      fields.paymentMethod,
      fields.routingNumber,
      fields.accountNumber,
      fields.active,
    ],
  );
  if (!row) throw new Error('inserting a biller returned no row');
  return row;
}

export async function updateBiller(tx: Queryable, id: string, fields: BillerFields): Promise<BillerRow> {
  const [row] = await tx.query<BillerRow>(
    `UPDATE billers SET name = $2, category = $3, account_number_pattern = $4, account_number_example = $5, payment_method = $6,
       routing_number = $7, account_number = $8, active = $9, updated_at = now()
     WHERE id = $1 RETURNING ${columns}`,
    [
      id,
      fields.name,
      fields.category,
      fields.accountNumberPattern,
      fields.accountNumberExample,
      fields.paymentMethod,
      fields.routingNumber,
      fields.accountNumber,
      fields.active,
    ],
  );
  if (!row) throw new Error(`biller ${id} disappeared while it was locked`);
  return row;
}

/** Whether the directory has any biller at all (the sandbox seeds only an empty one). */
export async function hasAnyBiller(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM billers) AS present');
  return rows[0]?.present === true;
}
