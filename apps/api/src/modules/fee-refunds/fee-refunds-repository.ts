import type { FeeRefundStatus } from '@strongroom/contracts/products.ts';
import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';

/** The most fees one customer's list shows, newest first: more than eight years of monthly fees on three accounts. */
export const customerFeesLimit = 300;

export interface FeeRefundRow {
  id: string;
  fee_payment_id: string;
  customer_id: string;
  amount_cents: bigint;
  status: FeeRefundStatus;
  requested_by: string;
  request_reason: string;
  decided_by: string | null;
  decision_reason: string | null;
  decided_at: Date | null;
  refund_payment_id: string | null;
  to_account_id: string | null;
  created_at: Date;
}

export interface FeePaymentRow {
  id: string;
  customer_id: string;
  from_account_id: string;
  amount_cents: bigint;
  message: string;
  created_at: Date;
}

export interface CustomerFeeRow extends FeePaymentRow {
  account_name: string;
}

const refundColumns = `r.id, r.fee_payment_id, r.customer_id, r.amount_cents, r.status, r.requested_by, r.request_reason, r.decided_by,
  r.decision_reason, r.decided_at, r.refund_payment_id, r.to_account_id, r.created_at`;

export async function customerExists(db: Queryable, customerId: string): Promise<boolean> {
  if (!isUuid(customerId)) return false;
  return (await db.query('SELECT 1 FROM customers WHERE id = $1', [customerId])).length > 0;
}

/** The fees this customer paid (payments of kind 'fee' that completed), newest first. */
export function listCustomerFees(db: Queryable, customerId: string): Promise<CustomerFeeRow[]> {
  return db.query<CustomerFeeRow>(
    `SELECT p.id, p.customer_id, p.from_account_id, p.amount_cents, p.message, p.created_at, a.name AS account_name
       FROM payments p JOIN customer_accounts a ON a.id = p.from_account_id
      WHERE p.customer_id = $1 AND p.kind = 'fee' AND p.status = 'completed'
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ${customerFeesLimit}`,
    [customerId],
  );
}

/** Each fee's latest refund request, by fee. */
export async function latestRefundsOf(db: Queryable, feePaymentIds: readonly string[]): Promise<Map<string, FeeRefundRow>> {
  if (feePaymentIds.length === 0) return new Map();
  const rows = await db.query<FeeRefundRow>(
    `SELECT DISTINCT ON (r.fee_payment_id) ${refundColumns} FROM fee_refunds r
      WHERE r.fee_payment_id = ANY($1::uuid[]) ORDER BY r.fee_payment_id, r.created_at DESC, r.id DESC`,
    [feePaymentIds],
  );
  return new Map(rows.map((row) => [row.fee_payment_id, row]));
}

/** Locks a completed fee's payment row until the transaction ends: refunds of one fee are decided one at a time. */
export async function lockFeePayment(tx: Queryable, paymentId: string): Promise<FeePaymentRow | undefined> {
  if (!isUuid(paymentId)) return undefined;
  const [row] = await tx.query<FeePaymentRow>(
    `SELECT id, customer_id, from_account_id, amount_cents, message, created_at FROM payments
      WHERE id = $1 AND kind = 'fee' AND status = 'completed' FOR UPDATE`,
    [paymentId],
  );
  return row;
}

/** The refund asked for or made of this fee, if any (at most one, migration 0042). */
export async function activeRefundOf(tx: Queryable, feePaymentId: string): Promise<FeeRefundRow | undefined> {
  const [row] = await tx.query<FeeRefundRow>(`SELECT ${refundColumns} FROM fee_refunds r WHERE r.fee_payment_id = $1 AND r.status <> 'rejected'`, [
    feePaymentId,
  ]);
  return row;
}

export async function findRefund(db: Queryable, refundId: string): Promise<FeeRefundRow | undefined> {
  if (!isUuid(refundId)) return undefined;
  const [row] = await db.query<FeeRefundRow>(`SELECT ${refundColumns} FROM fee_refunds r WHERE r.id = $1`, [refundId]);
  return row;
}

/** Locks a refund request until the transaction ends: two approvals at once are taken one after the other. */
export async function lockRefund(tx: Queryable, refundId: string): Promise<FeeRefundRow | undefined> {
  if (!isUuid(refundId)) return undefined;
  const [row] = await tx.query<FeeRefundRow>(`SELECT ${refundColumns} FROM fee_refunds r WHERE r.id = $1 FOR UPDATE`, [refundId]);
  return row;
}

export interface NewRefund {
  id: string;
  feePaymentId: string;
  customerId: string;
  amountCents: bigint;
  requestedBy: string;
  requestReason: string;
  /** Set when the money moved with the request (a fee under the four-eyes threshold). */
  refunded: { refundPaymentId: string; toAccountId: string } | null;
}

export async function insertRefund(tx: Queryable, refund: NewRefund): Promise<void> {
  await tx.query(
    `INSERT INTO fee_refunds (id, fee_payment_id, customer_id, amount_cents, status, requested_by, request_reason, decided_by, decision_reason, decided_at,
                              refund_payment_id, to_account_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $5 = 'refunded' THEN now() END, $10, $11)`,
    [
      refund.id,
      refund.feePaymentId,
      refund.customerId,
      refund.amountCents,
      refund.refunded ? 'refunded' : 'awaiting_approval',
      refund.requestedBy,
      refund.requestReason,
      refund.refunded ? refund.requestedBy : null,
      refund.refunded ? refund.requestReason : null,
      refund.refunded?.refundPaymentId ?? null,
      refund.refunded?.toAccountId ?? null,
    ],
  );
}

/** Decides a request still awaiting approval; false when it was decided already. */
export async function decideRefund(
  tx: Queryable,
  refundId: string,
  decision: { status: 'refunded' | 'rejected'; decidedBy: string; reason: string; refundPaymentId: string | null; toAccountId: string | null },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE fee_refunds SET status = $2, decided_by = $3, decision_reason = $4, decided_at = now(), refund_payment_id = $5, to_account_id = $6
      WHERE id = $1 AND status = 'awaiting_approval' RETURNING id`,
    [refundId, decision.status, decision.decidedBy, decision.reason, decision.refundPaymentId, decision.toAccountId],
  );
  return rows.length === 1;
}

/**
 * Where a refund of a fee taken from `accountId` goes: that account while it is open, else the
 * customer's first open account of the same kind (checking or savings); undefined when there is none.
 */
export async function refundTargetAccount(tx: Queryable, accountId: string): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT candidate.id FROM customer_accounts source
       JOIN customer_accounts candidate ON candidate.customer_id = source.customer_id AND candidate.type = source.type AND candidate.status <> 'closed'
      WHERE source.id = $1
      ORDER BY (candidate.id = source.id) DESC, candidate.opened_at, candidate.id
      LIMIT 1`,
    [accountId],
  );
  return row?.id;
}
