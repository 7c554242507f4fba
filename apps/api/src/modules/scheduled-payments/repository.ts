import type { Queryable } from '../../db/database.ts';
import type { TransferBody } from '../payments/service.ts';

/** Scheduled payments and the occurrences something happened to (migration 0047). SQL only. */
export type ScheduleStatus = 'active' | 'completed' | 'cancelled';
export type OccurrenceRowStatus = 'scheduled' | 'paid' | 'skipped' | 'failed' | 'cancelled';
export type ScheduleKind = 'own' | 'internal' | 'external' | 'bill';

export interface ScheduleRow {
  id: string;
  customer_id: string;
  status: ScheduleStatus;
  payment: TransferBody;
  from_account_id: string;
  kind: ScheduleKind;
  amount_cents: bigint;
  payee_name: string;
  description: string;
  start_date: string;
  frequency: 'once' | 'weekly' | 'biweekly' | 'monthly';
  day_of_month: number | null;
  last_business_day: boolean;
  end_date: string | null;
  count: number | null;
  floor_date: string;
  applies_from: string;
  next_date: string | null;
  idempotency_key: string;
  request_hash: Buffer | Uint8Array;
  created_at: Date;
}

const scheduleColumns = `id, customer_id, status, payment, from_account_id, kind, amount_cents, payee_name, description,
  start_date::text AS start_date, frequency, day_of_month, last_business_day, end_date::text AS end_date, count,
  floor_date::text AS floor_date, applies_from::text AS applies_from, next_date::text AS next_date,
  idempotency_key, request_hash, created_at`;

export interface OccurrenceRow {
  schedule_id: string;
  due_date: string;
  date: string;
  status: OccurrenceRowStatus;
  payment: TransferBody;
  attempts: number;
  retry_date: string | null;
  transfer_id: string | null;
  reason: string | null;
}

const occurrenceColumns = `schedule_id, due_date::text AS due_date, date::text AS date, status, payment, attempts,
  retry_date::text AS retry_date, transfer_id, reason`;

/** The payment and recurrence a schedule is made or edited with. */
export interface ScheduleTerms {
  payment: TransferBody;
  fromAccountId: string;
  kind: ScheduleKind;
  amountCents: bigint;
  payeeName: string;
  description: string;
  startDate: string;
  frequency: ScheduleRow['frequency'];
  dayOfMonth: number | null;
  lastBusinessDay: boolean;
  endDate: string | null;
  count: number | null;
  floorDate: string;
  appliesFrom: string;
  nextDate: string | null;
}

/** Inserts a schedule; undefined when the customer's Idempotency-Key is already taken (the caller replays that one). */
export async function insertSchedule(
  tx: Queryable,
  schedule: ScheduleTerms & { id: string; customerId: string; idempotencyKey: string; requestHash: Buffer },
): Promise<ScheduleRow | undefined> {
  const [row] = await tx.query<ScheduleRow>(
    `INSERT INTO scheduled_payments (id, customer_id, status, payment, from_account_id, kind, amount_cents, payee_name, description, start_date,
       frequency, day_of_month, last_business_day, end_date, count, floor_date, applies_from, next_date, idempotency_key, request_hash)
     VALUES ($1, $2, 'active', $3::jsonb, $4, $5, $6, $7, $8, $9::date, $10, $11, $12, $13::date, $14, $15::date, $16::date, $17::date, $18, $19)
     ON CONFLICT (customer_id, idempotency_key) DO NOTHING
     RETURNING ${scheduleColumns}`,
    [
      schedule.id,
      schedule.customerId,
      JSON.stringify(schedule.payment),
      schedule.fromAccountId,
      schedule.kind,
      schedule.amountCents,
      schedule.payeeName,
      schedule.description,
      schedule.startDate,
      schedule.frequency,
      schedule.dayOfMonth,
      schedule.lastBusinessDay,
      schedule.endDate,
      schedule.count,
      schedule.floorDate,
      schedule.appliesFrom,
      schedule.nextDate,
      schedule.idempotencyKey,
      schedule.requestHash,
    ],
  );
  return row;
}

/** Replaces a schedule's payment and recurrence (an edit). */
export async function updateScheduleTerms(tx: Queryable, id: string, terms: ScheduleTerms, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments SET payment = $2::jsonb, from_account_id = $3, kind = $4, amount_cents = $5, payee_name = $6, description = $7,
       start_date = $8::date, frequency = $9, day_of_month = $10, last_business_day = $11, end_date = $12::date, count = $13,
       floor_date = $14::date, applies_from = $15::date, next_date = $16::date, updated_at = coalesce($17::timestamptz, now())
     WHERE id = $1`,
    [
      id,
      JSON.stringify(terms.payment),
      terms.fromAccountId,
      terms.kind,
      terms.amountCents,
      terms.payeeName,
      terms.description,
      terms.startDate,
      terms.frequency,
      terms.dayOfMonth,
      terms.lastBusinessDay,
      terms.endDate,
      terms.count,
      terms.floorDate,
      terms.appliesFrom,
      terms.nextDate,
      now,
    ],
  );
}

export async function findScheduleByKey(db: Queryable, customerId: string, idempotencyKey: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.query<ScheduleRow>(`SELECT ${scheduleColumns} FROM scheduled_payments WHERE customer_id = $1 AND idempotency_key = $2`, [
    customerId,
    idempotencyKey,
  ]);
  return row;
}

/** A schedule of this customer's; someone else's is not found. `forUpdate` locks it until the transaction ends. */
export async function findCustomerSchedule(db: Queryable, customerId: string, id: string, forUpdate = false): Promise<ScheduleRow | undefined> {
  const [row] = await db.query<ScheduleRow>(
    `SELECT ${scheduleColumns} FROM scheduled_payments WHERE id = $1 AND customer_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, customerId],
  );
  return row;
}

export async function lockSchedule(tx: Queryable, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await tx.query<ScheduleRow>(`SELECT ${scheduleColumns} FROM scheduled_payments WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/** A customer's schedules, newest first, at most `limit`. */
export function listCustomerSchedules(db: Queryable, customerId: string, limit: number): Promise<ScheduleRow[]> {
  return db.query<ScheduleRow>(`SELECT ${scheduleColumns} FROM scheduled_payments WHERE customer_id = $1 ORDER BY created_at DESC, id LIMIT $2`, [
    customerId,
    limit,
  ]);
}

export async function countActiveSchedules(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM scheduled_payments WHERE customer_id = $1 AND status = 'active'`, [
    customerId,
  ]);
  return row?.n ?? 0;
}

/**
 * The occurrence rows that bear on what is ahead of these schedules: those still to be paid, and
 * those written for the dates the series has not reached yet (skipped ahead of time).
 */
export function pendingOccurrenceRows(db: Queryable, scheduleIds: readonly string[]): Promise<OccurrenceRow[]> {
  if (scheduleIds.length === 0) return Promise.resolve([]);
  return db.query<OccurrenceRow>(
    `SELECT ${occurrenceColumns} FROM scheduled_payment_occurrences o
      WHERE o.schedule_id = ANY($1::uuid[])
        AND (o.status = 'scheduled' OR o.due_date >= (SELECT s.next_date FROM scheduled_payments s WHERE s.id = o.schedule_id))
      ORDER BY o.schedule_id, o.due_date`,
    [scheduleIds],
  );
}

/** A schedule's occurrence rows, the latest `limit` by due date, soonest first. */
export async function occurrenceRowsOf(db: Queryable, scheduleId: string, limit: number): Promise<OccurrenceRow[]> {
  const rows = await db.query<OccurrenceRow>(
    `SELECT ${occurrenceColumns} FROM scheduled_payment_occurrences WHERE schedule_id = $1 ORDER BY due_date DESC LIMIT $2`,
    [scheduleId, limit],
  );
  return rows.reverse();
}

/** Writes occurrences whose cut-off has passed (or skipped ahead of time); one already written keeps what it says. */
export async function insertOccurrences(
  tx: Queryable,
  scheduleId: string,
  occurrences: readonly { dueDate: string; date: string; status: OccurrenceRowStatus; payment: TransferBody; reason?: string }[],
): Promise<void> {
  if (occurrences.length === 0) return;
  await tx.query(
    `INSERT INTO scheduled_payment_occurrences (schedule_id, due_date, date, status, payment, reason)
     SELECT $1, o.due_date, o.date, o.status, o.payment::jsonb, o.reason
       FROM unnest($2::date[], $3::date[], $4::text[], $5::text[], $6::text[]) AS o (due_date, date, status, payment, reason)
     ON CONFLICT (schedule_id, due_date) DO NOTHING`,
    [
      scheduleId,
      occurrences.map((o) => o.dueDate),
      occurrences.map((o) => o.date),
      occurrences.map((o) => o.status),
      occurrences.map((o) => JSON.stringify(o.payment)),
      occurrences.map((o) => o.reason ?? null),
    ],
  );
}

export async function setNextDate(tx: Queryable, scheduleId: string, nextDate: string | null): Promise<void> {
  await tx.query('UPDATE scheduled_payments SET next_date = $2::date WHERE id = $1', [scheduleId, nextDate]);
}

/** Cancels the series, and those of its occurrences still to be paid from `fromDate` on. */
export async function cancelScheduleRows(tx: Queryable, scheduleId: string, fromDate: string, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments SET status = 'cancelled', next_date = NULL, cancelled_at = coalesce($2::timestamptz, now()), updated_at = coalesce($2::timestamptz, now())
      WHERE id = $1`,
    [scheduleId, now],
  );
  await tx.query(
    `UPDATE scheduled_payment_occurrences SET status = 'cancelled', reason = 'Cancelled by you', updated_at = coalesce($3::timestamptz, now())
      WHERE schedule_id = $1 AND status = 'scheduled' AND coalesce(retry_date, date) >= $2::date`,
    [scheduleId, fromDate, now],
  );
}

/** An active schedule whose every occurrence is written and none still to be paid is completed. */
export async function completeIfFinished(tx: Queryable, scheduleId: string, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments s SET status = 'completed', updated_at = coalesce($2::timestamptz, now())
      WHERE s.id = $1 AND s.status = 'active' AND s.next_date IS NULL
        AND NOT EXISTS (SELECT 1 FROM scheduled_payment_occurrences o WHERE o.schedule_id = s.id AND o.status = 'scheduled')`,
    [scheduleId, now],
  );
}

/** Active schedules with an occurrence dated up to `through` not written yet, at most `limit`. */
export async function schedulesDueThrough(db: Queryable, through: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM scheduled_payments WHERE status = 'active' AND next_date IS NOT NULL AND next_date <= $1::date ORDER BY next_date, id LIMIT $2`,
    [through, limit],
  );
  return rows.map((row) => row.id);
}

/** Occurrences to pay: dated (or to be retried) up to `through`, oldest first, at most `limit`, with their customer. */
export function occurrencesDueThrough(
  db: Queryable,
  through: string,
  limit: number,
): Promise<Array<OccurrenceRow & { customer_id: string; payee_name: string }>> {
  return db.query(
    `SELECT o.schedule_id, o.due_date::text AS due_date, o.date::text AS date, o.status, o.payment, o.attempts,
            o.retry_date::text AS retry_date, o.transfer_id, o.reason, s.customer_id, s.payee_name
       FROM scheduled_payment_occurrences o JOIN scheduled_payments s ON s.id = o.schedule_id
      WHERE o.status = 'scheduled' AND coalesce(o.retry_date, o.date) <= $1::date
      ORDER BY coalesce(o.retry_date, o.date), o.schedule_id, o.due_date LIMIT $2`,
    [through, limit],
  );
}

/** Locks an occurrence (after its schedule) and answers it if it is still to be paid at this attempt. */
export async function lockOccurrenceToPay(tx: Queryable, scheduleId: string, dueDate: string, attempts: number): Promise<OccurrenceRow | undefined> {
  await tx.query('SELECT id FROM scheduled_payments WHERE id = $1 FOR UPDATE', [scheduleId]);
  const [row] = await tx.query<OccurrenceRow>(
    `SELECT ${occurrenceColumns} FROM scheduled_payment_occurrences
      WHERE schedule_id = $1 AND due_date = $2::date AND status = 'scheduled' AND attempts = $3 FOR UPDATE`,
    [scheduleId, dueDate, attempts],
  );
  return row;
}

export interface OccurrenceChange {
  status: OccurrenceRowStatus;
  attempts: number;
  retryDate: string | null;
  transferId: string | null;
  reason: string | null;
}

export async function updateOccurrence(tx: Queryable, scheduleId: string, dueDate: string, change: OccurrenceChange, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payment_occurrences
        SET status = $3, attempts = $4, retry_date = $5::date, transfer_id = $6, reason = $7, updated_at = coalesce($8::timestamptz, now())
      WHERE schedule_id = $1 AND due_date = $2::date`,
    [scheduleId, dueDate, change.status, change.attempts, change.retryDate, change.transferId, change.reason, now],
  );
}

/** Skips an occurrence still to be paid (a retry, or one written before an edit). */
export async function skipOccurrenceRow(tx: Queryable, scheduleId: string, dueDate: string, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payment_occurrences SET status = 'skipped', reason = 'Skipped by you', updated_at = coalesce($3::timestamptz, now())
      WHERE schedule_id = $1 AND due_date = $2::date AND status = 'scheduled'`,
    [scheduleId, dueDate, now],
  );
}
