import type { Queryable } from '../../db/database.ts';
import { keysetWalk, type KeysetPosition } from '../../platform/keyset-cursor.ts';

/** The SQL of adjusting entries (books_adjustments, migration 0050) and of the reconciliation exception one settles. */

export type AdjustmentStatus = 'awaiting_approval' | 'posted' | 'rejected';

export interface AdjustmentRow {
  id: string;
  debit_account: string;
  credit_account: string;
  amount_cents: bigint;
  posted_on: string | null;
  reason: string;
  status: AdjustmentStatus;
  requested_by: string;
  requested_by_email: string | null;
  decided_by: string | null;
  decided_by_email: string | null;
  decision_reason: string | null;
  decided_at: Date | null;
  transfer_id: string | null;
  exception_id: string | null;
  created_at: Date;
  /** The created_at as PostgreSQL's text (microseconds kept), for a keyset cursor. */
  sort_text: string;
}

// The staff members' emails are read by subquery, not a join, so that `FOR UPDATE` locks the entry's row alone and the keyset's columns stay unambiguous.
const columns = `id, debit_account, credit_account, amount_cents, to_char(posted_on, 'YYYY-MM-DD') AS posted_on, reason, status, requested_by,
  (SELECT s.email FROM staff s WHERE s.id = requested_by) AS requested_by_email, decided_by,
  (SELECT s.email FROM staff s WHERE s.id = decided_by) AS decided_by_email, decision_reason, decided_at, transfer_id, exception_id, created_at,
  created_at::text AS sort_text`;

export async function findAdjustment(db: Queryable, id: string, lock = false): Promise<AdjustmentRow | undefined> {
  const [row] = await db.query<AdjustmentRow>(`SELECT ${columns} FROM books_adjustments WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

export interface NewAdjustment {
  id: string;
  debitAccount: string;
  creditAccount: string;
  amountCents: bigint;
  postedOn: string | null;
  reason: string;
  requestedBy: string;
  exceptionId: string | null;
  /** The ledger transfer posted with it now, or null while it awaits approval. */
  transferId: string | null;
  at: Date | null;
}

export async function insertAdjustment(db: Queryable, entry: NewAdjustment): Promise<void> {
  await db.query(
    `INSERT INTO books_adjustments (id, debit_account, credit_account, amount_cents, posted_on, reason, status, requested_by, transfer_id, exception_id, created_at)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $10, coalesce($11::timestamptz, now()))`,
    [
      entry.id,
      entry.debitAccount,
      entry.creditAccount,
      entry.amountCents.toString(),
      entry.postedOn,
      entry.reason,
      entry.transferId === null ? 'awaiting_approval' : 'posted',
      entry.requestedBy,
      entry.transferId,
      entry.exceptionId,
      entry.at,
    ],
  );
}

/** Records a decision on an entry awaiting one; false when it was not awaiting (the caller holds its row lock, so that is a defect). */
export async function decideAdjustmentRow(
  db: Queryable,
  id: string,
  decision: { status: 'posted' | 'rejected'; decidedBy: string; reason: string; transferId: string | null; postedOn: string | null; at: Date | null },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE books_adjustments
        SET status = $2, decided_by = $3, decision_reason = $4, transfer_id = $5, posted_on = coalesce($6::date, posted_on), decided_at = coalesce($7::timestamptz, now())
      WHERE id = $1 AND status = 'awaiting_approval'
      RETURNING id`,
    [id, decision.status, decision.decidedBy, decision.reason, decision.transferId, decision.postedOn, decision.at],
  );
  return rows.length === 1;
}

/** A page of entries, newest first, of one status or all, after `after`; one row more than `limit` tells whether another page follows. */
export async function listAdjustments(
  db: Queryable,
  status: AdjustmentStatus | undefined,
  after: KeysetPosition | undefined,
  limit: number,
): Promise<AdjustmentRow[]> {
  const parameters: unknown[] = [status ?? null];
  const { keyset, orderBy } = keysetWalk({ at: 'created_at', id: 'id' }, 'DESC', after, parameters);
  parameters.push(limit + 1);
  return db.query<AdjustmentRow>(
    `SELECT ${columns} FROM books_adjustments WHERE ($1::text IS NULL OR status = $1) ${keyset} ORDER BY ${orderBy} LIMIT $${parameters.length}`,
    parameters,
  );
}

/** The business day the ledger booked a transfer on (its posted_on, set by migration 0050's trigger). */
export async function bookedDayOf(db: Queryable, transferId: string): Promise<string> {
  const [row] = await db.query<{ posted_on: string }>(`SELECT to_char(posted_on, 'YYYY-MM-DD') AS posted_on FROM ledger_transfers WHERE id = $1`, [transferId]);
  if (!row) throw new Error(`transfer ${transferId} was booked and is not in the ledger`);
  return row.posted_on;
}

/** Names the entry on the open exception it settles; false when the exception is not open or another entry settles it. */
export async function linkException(db: Queryable, exceptionId: string, adjustmentId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE reconciliation_exceptions SET adjustment_id = $2
      WHERE id = $1 AND status = 'open' AND (adjustment_id IS NULL OR adjustment_id = $2)
      RETURNING id`,
    [exceptionId, adjustmentId],
  );
  return rows.length === 1;
}

/** The entry posted: the exception it names is resolved as adjusted, by whom and why the entry was asked for. */
export async function resolveAdjustedException(
  db: Queryable,
  exceptionId: string,
  adjustmentId: string,
  resolution: { resolvedBy: string; reason: string; at: Date | null },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE reconciliation_exceptions
        SET status = 'resolved', resolution = 'adjusted', resolution_reason = $3, resolved_by = $4, resolved_at = coalesce($5::timestamptz, now())
      WHERE id = $1 AND adjustment_id = $2 AND status = 'open'
      RETURNING id`,
    [exceptionId, adjustmentId, resolution.reason, resolution.resolvedBy, resolution.at],
  );
  return rows.length === 1;
}

/** The entry was rejected: its exception is open with no entry again, so it may be resolved another way. */
export async function unlinkException(db: Queryable, exceptionId: string, adjustmentId: string): Promise<void> {
  await db.query(`UPDATE reconciliation_exceptions SET adjustment_id = NULL WHERE id = $1 AND adjustment_id = $2 AND status = 'open'`, [
    exceptionId,
    adjustmentId,
  ]);
}
