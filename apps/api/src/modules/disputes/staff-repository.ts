import type { DisputeStatus } from '@strongroom/contracts/disputes.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import { disputeColumnsOf, type DisputeEventKind, type DisputeRow, type PresentedDisputeRow } from './repository.ts';

/** The back office's queries of disputes (staff-service.ts, money.ts, jobs.ts). SQL only. */

/** A case as the back office reads it: the dispute, the disputed payment as history words it, the customer, the credit given so far. */
export interface StaffDisputeRow extends PresentedDisputeRow {
  customer_name: string;
  customer_email: string;
}

const staffColumns = `${disputeColumnsOf('d')},
  (SELECT c.amount_cents FROM payments c WHERE c.id = d.provisional_credit_payment_id) AS provisional_credit_cents,
  p.kind AS payment_kind, p.amount_cents AS payment_amount_cents, p.created_at AS payment_created_at, p.message AS payment_message,
  p.counterparty_name AS payment_counterparty_name, p.counterparty_bank_name AS payment_counterparty_bank_name, p.details AS payment_details,
  u.first_name || ' ' || u.last_name AS customer_name, u.email AS customer_email`;

const staffFrom = 'disputes d JOIN payments p ON p.id = d.payment_id JOIN customers u ON u.id = d.customer_id';

/** The deadline a case is worked to: provisional credit by, until credit is given; then resolve by. */
const nextDeadlineSql = 'CASE WHEN d.provisional_credit_payment_id IS NULL THEN d.provisional_credit_by ELSE d.resolve_by END';

/** The statuses of a case not decided yet. */
const openStatusesSql = "('submitted', 'investigating', 'provisionally_credited')";

export async function findStaffDispute(db: Queryable, id: string): Promise<StaffDisputeRow | undefined> {
  const [row] = await db.query<StaffDisputeRow>(`SELECT ${staffColumns} FROM ${staffFrom} WHERE d.id = $1`, [id]);
  return row;
}

/**
 * The queue: open cases first, nearest deadline first (provisional credit by for a case without
 * credit, else resolve by), then decided and withdrawn ones, newest first; at most `limit`.
 */
export function listStaffDisputes(db: Queryable, status: DisputeStatus | undefined, limit: number): Promise<StaffDisputeRow[]> {
  return db.query<StaffDisputeRow>(
    `SELECT ${staffColumns} FROM ${staffFrom}
      WHERE $1::text IS NULL OR d.status = $1
      ORDER BY (d.status IN ${openStatusesSql}) DESC,
               CASE WHEN d.status IN ${openStatusesSql} THEN ${nextDeadlineSql} END,
               d.created_at DESC, d.id
      LIMIT $2`,
    [status ?? null, limit],
  );
}

export interface StaffEventRow {
  kind: DisputeEventKind | 'decision_proposed';
  text: string;
  staff_reason: string | null;
  staff_name: string | null;
  visible: boolean;
  created_at: Date;
}

/** Every event of a case, oldest first, with the staff member's reason and name where one acted. */
export function staffEventsOf(db: Queryable, disputeId: string, limit: number): Promise<StaffEventRow[]> {
  return db.query<StaffEventRow>(
    `SELECT e.kind, e.text, e.staff_reason, s.email AS staff_name, e.visible, e.created_at
       FROM dispute_events e LEFT JOIN staff s ON s.id = e.staff_id
      WHERE e.dispute_id = $1 ORDER BY e.id LIMIT $2`,
    [disputeId, limit],
  );
}

/** An event of a case with the staff member's reason (null for the system's), visible to the customer or not. */
export async function insertStaffEvent(
  tx: Queryable,
  event: {
    disputeId: string;
    kind: DisputeEventKind | 'decision_proposed';
    text: string;
    staffReason: string | null;
    staffId: string | null;
    visible: boolean;
  },
  now: Date | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO dispute_events (dispute_id, kind, text, staff_reason, staff_id, visible, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()))`,
    [event.disputeId, event.kind, event.text, event.staffReason, event.staffId, event.visible, now],
  );
}

/** The explanation of the decision waiting for a second person (the text of its latest `decision_proposed` event). */
export async function pendingExplanationOf(db: Queryable, disputeId: string): Promise<string | undefined> {
  const [row] = await db.query<{ text: string }>(
    `SELECT text FROM dispute_events WHERE dispute_id = $1 AND kind = 'decision_proposed' ORDER BY id DESC LIMIT 1`,
    [disputeId],
  );
  return row?.text;
}

export interface SameCounterpartyRow {
  id: string;
  kind: PaymentKind;
  amount_cents: bigint;
  status: string;
  created_at: Date;
}

/**
 * The customer's other payments with the disputed payment's merchant or payee, newest first: the
 * same merchant for a card purchase, the same bill payee for a bill, otherwise the same name and
 * account number (a payment in: the same sender).
 */
export function sameCounterpartyOf(db: Queryable, dispute: Pick<DisputeRow, 'customer_id' | 'payment_id'>, limit: number): Promise<SameCounterpartyRow[]> {
  return db.query<SameCounterpartyRow>(
    `SELECT o.id, o.kind, o.amount_cents, o.status, o.created_at
       FROM payments d JOIN payments o ON o.customer_id = $1 AND o.id <> d.id
      WHERE d.id = $2
        AND CASE
          WHEN d.details ->> 'merchantName' IS NOT NULL THEN o.details ->> 'merchantName' = d.details ->> 'merchantName'
          WHEN d.details ->> 'billPayeeId' IS NOT NULL THEN o.details ->> 'billPayeeId' = d.details ->> 'billPayeeId'
          ELSE o.kind = d.kind AND lower(o.counterparty_name) = lower(d.counterparty_name)
            AND o.counterparty_account_number IS NOT DISTINCT FROM d.counterparty_account_number
            AND coalesce(o.details ->> 'senderName', '') = coalesce(d.details ->> 'senderName', '')
        END
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT $3`,
    [dispute.customer_id, dispute.payment_id, limit],
  );
}

export async function markInvestigating(tx: Queryable, id: string, now: Date | null): Promise<void> {
  await tx.query(`UPDATE disputes SET status = 'investigating', updated_at = coalesce($2::timestamptz, now()) WHERE id = $1 AND status = 'submitted'`, [
    id,
    now,
  ]);
}

/** The credit given: its payment, when, and the case provisionally credited while it is open. */
export async function markCredited(tx: Queryable, id: string, paymentId: string, now: Date | null): Promise<void> {
  await tx.query(
    `UPDATE disputes SET provisional_credit_payment_id = $2, provisional_credit_at = coalesce($3::timestamptz, now()),
       status = CASE WHEN status IN ('submitted', 'investigating') THEN 'provisionally_credited' ELSE status END,
       updated_at = coalesce($3::timestamptz, now())
     WHERE id = $1 AND provisional_credit_payment_id IS NULL`,
    [id, paymentId, now],
  );
}

export async function proposeDecision(
  tx: Queryable,
  id: string,
  proposal: { decision: 'customer' | 'denied'; staffId: string; reason: string },
  now: Date | null,
): Promise<void> {
  await tx.query(
    `UPDATE disputes SET pending_decision = $2, pending_decision_by = $3, pending_decision_reason = $4, pending_decision_at = coalesce($5::timestamptz, now()),
       updated_at = coalesce($5::timestamptz, now())
     WHERE id = $1`,
    [id, proposal.decision, proposal.staffId, proposal.reason, now],
  );
}

/** The decision taken: the status it gives, who, when, the chargeback and the date a denial's credit is taken back; a pending proposal is cleared. */
export async function recordDecision(
  tx: Queryable,
  id: string,
  decision: { decision: 'customer' | 'denied'; staffId: string | null; reversalOn: string | null; chargebackTransferId: string | null },
  now: Date | null,
): Promise<void> {
  await tx.query(
    `UPDATE disputes SET decision = $2, status = CASE WHEN $2 = 'customer' THEN 'resolved' ELSE 'denied' END, decided_by = $3,
       decided_at = coalesce($6::timestamptz, now()), reversal_on = $4::date, chargeback_transfer_id = $5,
       pending_decision = NULL, pending_decision_by = NULL, pending_decision_reason = NULL, pending_decision_at = NULL,
       updated_at = coalesce($6::timestamptz, now())
     WHERE id = $1 AND decision IS NULL`,
    [id, decision.decision, decision.staffId, decision.reversalOn, decision.chargebackTransferId, now],
  );
}

export async function markReversed(tx: Queryable, id: string, paymentId: string, now: Date | null): Promise<void> {
  await tx.query(`UPDATE disputes SET reversal_payment_id = $2, updated_at = coalesce($3::timestamptz, now()) WHERE id = $1 AND reversal_payment_id IS NULL`, [
    id,
    paymentId,
    now,
  ]);
}

/** Open cases without credit whose provisional-credit date is `day` or earlier, at most `limit`, earliest first. */
export async function creditsDue(db: Queryable, day: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM disputes
      WHERE status IN ('submitted', 'investigating') AND provisional_credit_payment_id IS NULL AND decision IS NULL AND provisional_credit_by <= $1::date
      ORDER BY provisional_credit_by, id LIMIT $2`,
    [day, limit],
  );
  return rows.map((row) => row.id);
}

/** Denied cases whose credit is due back on `day` or earlier and not taken back yet, at most `limit`. */
export async function reversalsDue(db: Queryable, day: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM disputes
      WHERE reversal_on IS NOT NULL AND reversal_payment_id IS NULL AND decision = 'denied' AND provisional_credit_payment_id IS NOT NULL
        AND reversal_on <= $1::date
      ORDER BY reversal_on, id LIMIT $2`,
    [day, limit],
  );
  return rows.map((row) => row.id);
}

/** The disputed account's ledger accounts: what it holds, and what it owes the bank (null until it first owes). */
export interface DisputedAccountRow {
  id: string;
  ledger_account_id: string;
  owed_ledger_account_id: string | null;
}

export async function disputedAccountOf(db: Queryable, accountId: string): Promise<DisputedAccountRow> {
  const [row] = await db.query<DisputedAccountRow>('SELECT id, ledger_account_id, owed_ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]);
  if (!row) throw new Error(`account ${accountId} not found`);
  return row;
}
