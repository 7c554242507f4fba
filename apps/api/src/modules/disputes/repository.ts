import type { Queryable } from '../../db/database.ts';
import type { DisputeReason, DisputeStatus, disputeEventKinds, disputeEvidenceTypes, disputeLetterKinds } from '@strongroom/contracts/disputes.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { isUuid } from '../../platform/path-parameters.ts';

/** Disputes and what belongs to them (migration 0048). SQL only. */
export interface DisputeRow {
  id: string;
  customer_id: string;
  payment_id: string;
  account_id: string;
  reason: DisputeReason;
  description: string;
  status: DisputeStatus;
  amount_cents: bigint;
  received_on: string;
  provisional_credit_by: string;
  resolve_by: string;
  new_account: boolean;
  point_of_sale: boolean;
  provisional_credit_payment_id: string | null;
  provisional_credit_at: Date | null;
  decision: 'customer' | 'denied' | null;
  decided_at: Date | null;
  decided_by: string | null;
  pending_decision: 'customer' | 'denied' | null;
  pending_decision_by: string | null;
  pending_decision_reason: string | null;
  pending_decision_at: Date | null;
  reversal_on: string | null;
  reversal_payment_id: string | null;
  chargeback_transfer_id: string | null;
  card_replaced: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Every column of `disputes`, dates as YYYY-MM-DD text. Prefix with a table alias by `disputeColumnsOf('d')`. */
export function disputeColumnsOf(alias?: string): string {
  const p = alias ? `${alias}.` : '';
  return `${p}id, ${p}customer_id, ${p}payment_id, ${p}account_id, ${p}reason, ${p}description, ${p}status, ${p}amount_cents,
  ${p}received_on::text AS received_on, ${p}provisional_credit_by::text AS provisional_credit_by, ${p}resolve_by::text AS resolve_by,
  ${p}new_account, ${p}point_of_sale, ${p}provisional_credit_payment_id, ${p}provisional_credit_at, ${p}decision, ${p}decided_at, ${p}decided_by,
  ${p}pending_decision, ${p}pending_decision_by, ${p}pending_decision_reason, ${p}pending_decision_at,
  ${p}reversal_on::text AS reversal_on, ${p}reversal_payment_id, ${p}chargeback_transfer_id, ${p}card_replaced, ${p}created_at, ${p}updated_at`;
}

export const disputeColumns = disputeColumnsOf();

/** A dispute by id, whoever's it is (callers check the owner). A malformed id is not found. */
export async function findDispute(db: Queryable, id: string): Promise<DisputeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<DisputeRow>(`SELECT ${disputeColumns} FROM disputes WHERE id = $1`, [id]);
  return row;
}

/** A dispute locked (SELECT ... FOR UPDATE) until the transaction ends. */
export async function lockDispute(tx: Queryable, id: string): Promise<DisputeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await tx.query<DisputeRow>(`SELECT ${disputeColumns} FROM disputes WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/** A dispute with what its answer shows beside the row: the disputed payment as history words it, and the provisional credit given so far. */
export interface PresentedDisputeRow extends DisputeRow {
  provisional_credit_cents: bigint | null;
  payment_kind: PaymentKind;
  payment_amount_cents: bigint;
  payment_created_at: Date;
  payment_message: string;
  payment_counterparty_name: string;
  payment_counterparty_bank_name: string | null;
  payment_details: Record<string, string>;
}

const presentedColumns = `${disputeColumnsOf('d')},
  (SELECT c.amount_cents FROM payments c WHERE c.id = d.provisional_credit_payment_id) AS provisional_credit_cents,
  p.kind AS payment_kind, p.amount_cents AS payment_amount_cents, p.created_at AS payment_created_at, p.message AS payment_message,
  p.counterparty_name AS payment_counterparty_name, p.counterparty_bank_name AS payment_counterparty_bank_name, p.details AS payment_details`;

/** The customer's own dispute; someone else's (or a malformed id) is not found. */
export async function findCustomerDispute(db: Queryable, customerId: string, id: string): Promise<PresentedDisputeRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<PresentedDisputeRow>(
    `SELECT ${presentedColumns} FROM disputes d JOIN payments p ON p.id = d.payment_id WHERE d.id = $1 AND d.customer_id = $2`,
    [id, customerId],
  );
  return row;
}

/** A customer's disputes, newest first, at most `limit`. */
export function listCustomerDisputes(db: Queryable, customerId: string, limit: number): Promise<PresentedDisputeRow[]> {
  return db.query<PresentedDisputeRow>(
    `SELECT ${presentedColumns} FROM disputes d JOIN payments p ON p.id = d.payment_id WHERE d.customer_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2`,
    [customerId, limit],
  );
}

/**
 * A payment as a dispute reads it: who owns the accounts it moved money from and to, when those
 * were opened, and for a card purchase the card of its authorisation (a card push has none).
 */
export interface DisputedPaymentRow {
  id: string;
  kind: PaymentKind;
  status: string;
  amount_cents: bigint;
  from_account_id: string | null;
  to_account_id: string | null;
  from_customer_id: string | null;
  to_customer_id: string | null;
  from_opened_at: Date | null;
  to_opened_at: Date | null;
  message: string;
  counterparty_name: string;
  counterparty_bank_name: string | null;
  details: Record<string, string>;
  created_at: Date;
  card_id: string | null;
  card_type: 'debit' | 'credit' | null;
}

export async function findDisputedPayment(db: Queryable, paymentId: string): Promise<DisputedPaymentRow | undefined> {
  if (!isUuid(paymentId)) return undefined;
  const [row] = await db.query<DisputedPaymentRow>(
    `SELECT p.id, p.kind, p.status, p.amount_cents, p.from_account_id, p.to_account_id,
            fa.customer_id AS from_customer_id, ta.customer_id AS to_customer_id, fa.opened_at AS from_opened_at, ta.opened_at AS to_opened_at,
            p.message, p.counterparty_name, p.counterparty_bank_name, p.details, p.created_at, a.card_id, k.type AS card_type
       FROM payments p
       LEFT JOIN customer_accounts fa ON fa.id = p.from_account_id
       LEFT JOIN customer_accounts ta ON ta.id = p.to_account_id
       LEFT JOIN card_authorizations a ON a.id = p.id
       LEFT JOIN cards k ON k.id = a.card_id
      WHERE p.id = $1`,
    [paymentId],
  );
  return row;
}

export interface NewDispute {
  id: string;
  customerId: string;
  paymentId: string;
  accountId: string;
  reason: DisputeReason;
  description: string;
  amountCents: bigint;
  receivedOn: string;
  provisionalCreditBy: string;
  resolveBy: string;
  newAccount: boolean;
  pointOfSale: boolean;
  cardReplaced: boolean;
}

export async function insertDispute(tx: Queryable, dispute: NewDispute, now: Date | null): Promise<void> {
  await tx.query(
    `INSERT INTO disputes (id, customer_id, payment_id, account_id, reason, description, status, amount_cents, received_on, provisional_credit_by,
       resolve_by, new_account, point_of_sale, card_replaced, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'submitted', $7, $8::date, $9::date, $10::date, $11, $12, $13, coalesce($14::timestamptz, now()), coalesce($14::timestamptz, now()))`,
    [
      dispute.id,
      dispute.customerId,
      dispute.paymentId,
      dispute.accountId,
      dispute.reason,
      dispute.description,
      dispute.amountCents,
      dispute.receivedOn,
      dispute.provisionalCreditBy,
      dispute.resolveBy,
      dispute.newAccount,
      dispute.pointOfSale,
      dispute.cardReplaced,
      now,
    ],
  );
}

/** Whether a dispute that was not withdrawn exists for this payment. */
export async function paymentIsDisputed(db: Queryable, paymentId: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM disputes WHERE payment_id = $1 AND status <> 'withdrawn') AS found`, [
    paymentId,
  ]);
  return row?.found ?? false;
}

export async function setDisputeStatus(tx: Queryable, id: string, status: DisputeStatus, now: Date | null): Promise<void> {
  await tx.query(`UPDATE disputes SET status = $2, updated_at = coalesce($3::timestamptz, now()) WHERE id = $1`, [id, status, now]);
}

export async function touchDispute(tx: Queryable, id: string, now: Date | null): Promise<void> {
  await tx.query(`UPDATE disputes SET updated_at = coalesce($2::timestamptz, now()) WHERE id = $1`, [id, now]);
}

export type DisputeEventKind = (typeof disputeEventKinds)[number];

/** A line of the case's timeline that the customer reads (staff events carry their reason in staff-repository.ts). */
export async function insertDisputeEvent(tx: Queryable, event: { disputeId: string; kind: DisputeEventKind; text: string }, now: Date | null): Promise<void> {
  await tx.query(`INSERT INTO dispute_events (dispute_id, kind, text, created_at) VALUES ($1, $2, $3, coalesce($4::timestamptz, now()))`, [
    event.disputeId,
    event.kind,
    event.text,
    now,
  ]);
}

export interface DisputeEventRow {
  kind: DisputeEventKind;
  text: string;
  created_at: Date;
}

/** The events the customer sees, oldest first. */
export function visibleEventsOf(db: Queryable, disputeId: string, limit: number): Promise<DisputeEventRow[]> {
  return db.query<DisputeEventRow>(`SELECT kind, text, created_at FROM dispute_events WHERE dispute_id = $1 AND visible ORDER BY id LIMIT $2`, [
    disputeId,
    limit,
  ]);
}

/** Whether the bank's last word on information is a question the customer has not answered yet. */
export async function informationIsAwaited(db: Queryable, disputeId: string): Promise<boolean> {
  const [row] = await db.query<{ kind: string }>(
    `SELECT kind FROM dispute_events WHERE dispute_id = $1 AND visible AND kind IN ('information_requested', 'information_given') ORDER BY id DESC LIMIT 1`,
    [disputeId],
  );
  return row?.kind === 'information_requested';
}

export interface DisputeLetterRow {
  id: string;
  kind: (typeof disputeLetterKinds)[number];
  created_at: Date;
}

export function lettersOf(db: Queryable, disputeId: string): Promise<DisputeLetterRow[]> {
  return db.query<DisputeLetterRow>(`SELECT id, kind, created_at FROM dispute_letters WHERE dispute_id = $1 ORDER BY created_at, id`, [disputeId]);
}

export interface DisputeEvidenceRow {
  id: string;
  dispute_id: string;
  file_name: string;
  content_type: (typeof disputeEvidenceTypes)[number];
  byte_size: number;
  storage_key: string;
  created_at: Date;
}

const evidenceColumns = 'id, dispute_id, file_name, content_type, byte_size, storage_key, created_at';

export function evidenceOf(db: Queryable, disputeId: string): Promise<DisputeEvidenceRow[]> {
  return db.query<DisputeEvidenceRow>(`SELECT ${evidenceColumns} FROM dispute_evidence WHERE dispute_id = $1 ORDER BY created_at, id`, [disputeId]);
}

export async function findEvidence(db: Queryable, disputeId: string, evidenceId: string): Promise<DisputeEvidenceRow | undefined> {
  if (!isUuid(evidenceId)) return undefined;
  const [row] = await db.query<DisputeEvidenceRow>(`SELECT ${evidenceColumns} FROM dispute_evidence WHERE id = $1 AND dispute_id = $2`, [
    evidenceId,
    disputeId,
  ]);
  return row;
}

export async function insertEvidence(
  tx: Queryable,
  evidence: { id: string; disputeId: string; fileName: string; contentType: string; byteSize: number; storageKey: string },
  now: Date | null,
): Promise<DisputeEvidenceRow> {
  const [row] = await tx.query<DisputeEvidenceRow>(
    `INSERT INTO dispute_evidence (id, dispute_id, file_name, content_type, byte_size, storage_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now())) RETURNING ${evidenceColumns}`,
    [evidence.id, evidence.disputeId, evidence.fileName, evidence.contentType, evidence.byteSize, evidence.storageKey, now],
  );
  if (!row) throw new Error('the evidence row was not written');
  return row;
}

export async function countEvidence(db: Queryable, disputeId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM dispute_evidence WHERE dispute_id = $1`, [disputeId]);
  return row?.n ?? 0;
}

export async function customerNameOf(db: Queryable, customerId: string): Promise<string> {
  const [row] = await db.query<{ name: string }>(`SELECT first_name || ' ' || last_name AS name FROM customers WHERE id = $1`, [customerId]);
  if (!row) throw new Error(`customer ${customerId} not found`);
  return row.name;
}
