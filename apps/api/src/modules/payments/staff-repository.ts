import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { paymentColumns, type PaymentRow, type StoredPaymentStatus } from './repository.ts';

/** SQL of the back office's payment queues (staff-routes.ts): held transfers and payments at the rails. */
export type HeldFilter = 'in_review' | 'rejected' | 'released';

/** A payment a rule held (review_rule is set only then) in the state the filter names. */
const heldWhere: Record<HeldFilter, string> = {
  in_review: "p.status = 'in_review'",
  rejected: "p.status = 'rejected' AND p.review_rule IS NOT NULL",
  released: "p.status IN ('pending', 'completed', 'returned') AND p.review_rule IS NOT NULL",
};

export interface StaffPaymentRow extends PaymentRow {
  customer_name: string;
  customer_email: string;
  trace_number: string | null;
}

const staffPaymentColumns = `${paymentColumns
  .split(',')
  .map((column) => `p.${column.trim()}`)
  .join(', ')}, c.first_name || ' ' || c.last_name AS customer_name, c.email AS customer_email`;

/** Oldest first, keyset by (created_at, id) after the cursor's payment; one more than `limit` says a next page exists. */
export async function listHeld(db: Queryable, filter: HeldFilter, cursor: string | undefined, limit: number): Promise<StaffPaymentRow[]> {
  return db.query<StaffPaymentRow>(
    `SELECT ${staffPaymentColumns}, NULL AS trace_number FROM payments p JOIN customers c ON c.id = p.customer_id
     WHERE ${heldWhere[filter]}
       AND ($1::uuid IS NULL OR (p.created_at, p.id) > (SELECT created_at, id FROM payments WHERE id = $1::uuid))
     ORDER BY p.created_at, p.id LIMIT $2`,
    [cursor ?? null, limit],
  );
}

export async function countHeld(db: Queryable, filter: HeldFilter): Promise<number> {
  const [row] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM payments p WHERE ${heldWhere[filter]}`);
  return row?.total ?? 0;
}

/** A payment a rule held, whatever became of it. */
export async function findHeld(db: Queryable, id: string): Promise<StaffPaymentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<StaffPaymentRow>(
    `SELECT ${staffPaymentColumns}, NULL AS trace_number FROM payments p JOIN customers c ON c.id = p.customer_id
     WHERE p.id = $1 AND (p.review_rule IS NOT NULL OR p.status = 'in_review')`,
    [id],
  );
  return row;
}

/** The customer's newest payments, for the reviewer's context. */
export async function recentPaymentsOf(db: Queryable, customerIds: readonly string[], perCustomer: number): Promise<PaymentRow[]> {
  if (customerIds.length === 0) return [];
  return db.query<PaymentRow>(
    `SELECT * FROM (
       SELECT ${paymentColumns}, row_number() OVER (PARTITION BY customer_id ORDER BY created_at DESC, id DESC) AS position
       FROM payments WHERE customer_id = ANY($1::uuid[]) AND status NOT IN ('creating', 'failed')
     ) AS recent WHERE position <= $2 ORDER BY created_at DESC, id DESC`,
    [customerIds, perCustomer],
  );
}

export interface ApprovalRow {
  payment_id: string;
  staff_id: string;
  email: string;
  reason: string;
  approved_at: Date;
}

export async function approvalsOf(db: Queryable, paymentIds: readonly string[]): Promise<ApprovalRow[]> {
  if (paymentIds.length === 0) return [];
  return db.query<ApprovalRow>(
    `SELECT a.payment_id, a.staff_id, s.email, a.reason, a.approved_at FROM payment_review_approvals a JOIN staff s ON s.id = a.staff_id
     WHERE a.payment_id = ANY($1::uuid[]) ORDER BY a.approved_at, a.staff_id`,
    [paymentIds],
  );
}

/** Locks the payment's row until the transaction ends: four-eyes approvals of one payment are taken one at a time. */
export async function lockPaymentStatus(tx: Queryable, id: string): Promise<{ status: StoredPaymentStatus; amount_cents: bigint } | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await tx.query<{ status: StoredPaymentStatus; amount_cents: bigint }>('SELECT status, amount_cents FROM payments WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  return row;
}

export async function insertApproval(tx: Queryable, paymentId: string, staffId: string, reason: string): Promise<void> {
  await tx.query('INSERT INTO payment_review_approvals (payment_id, staff_id, reason) VALUES ($1, $2, $3)', [paymentId, staffId, reason]);
}

export async function deleteApprovals(tx: Queryable, paymentId: string): Promise<void> {
  await tx.query('DELETE FROM payment_review_approvals WHERE payment_id = $1', [paymentId]);
}

/** An active staff member by email, for the ops CLI's `--staff` (the CLI acts on that person's behalf). */
export async function findActiveStaffByEmail(db: Queryable, email: string): Promise<{ id: string; email: string } | undefined> {
  const [row] = await db.query<{ id: string; email: string }>('SELECT id, email FROM staff WHERE email_normalized = lower(trim($1)) AND disabled_at IS NULL', [
    email,
  ]);
  return row;
}

const railWhere = `p.status = 'pending' AND p.rail = ANY($1::text[])
  AND ($2::date IS NULL OR (p.settle_at >= $2::date::timestamp AT TIME ZONE 'UTC' AND p.settle_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'))`;

/** Pending payments at the rails by expected settlement, keyset by (settle_at, id) after the cursor's payment. */
export async function listAtRails(
  db: Queryable,
  filter: { rails: readonly string[]; date: string | null },
  cursor: string | undefined,
  limit: number,
): Promise<StaffPaymentRow[]> {
  return db.query<StaffPaymentRow>(
    `SELECT ${staffPaymentColumns}, e.trace_number FROM payments p JOIN customers c ON c.id = p.customer_id
     LEFT JOIN ach_entries e ON e.payment_id = p.id
     WHERE ${railWhere}
       AND ($3::uuid IS NULL OR (coalesce(p.settle_at, 'infinity'), p.id) > (SELECT coalesce(settle_at, 'infinity'), id FROM payments WHERE id = $3::uuid))
     ORDER BY coalesce(p.settle_at, 'infinity'), p.id LIMIT $4`,
    [filter.rails, filter.date, cursor ?? null, limit],
  );
}

export async function countAtRails(db: Queryable, filter: { rails: readonly string[]; date: string | null }): Promise<number> {
  const [row] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM payments p WHERE ${railWhere}`, [filter.rails, filter.date]);
  return row?.total ?? 0;
}
