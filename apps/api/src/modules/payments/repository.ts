import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import { sqlInstant, type Clock } from '../../db/clock.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import type { StoredPaymentStatus } from '../../platform/payment-status.ts';

export type { StoredPaymentStatus };

import type { Rail } from '../money/service.ts';

export type { Rail };

export interface PaymentRow {
  id: string;
  customer_id: string;
  kind: PaymentKind;
  status: StoredPaymentStatus;
  from_account_id: string | null;
  to_account_id: string | null;
  amount_cents: bigint;
  counterparty_name: string;
  counterparty_account_number: string | null;
  counterparty_bank_name: string | null;
  counterparty_route_number: string | null;
  counterparty_country: string | null;
  details: Record<string, string>;
  payee_key: string | null;
  message: string;
  rail: Rail | null;
  settle_at: Date | null;
  status_reason: string | null;
  failure_code: string | null;
  /** The account at another bank a deposit pulls from. */
  funding_source_id: string | null;
  /** The NACHA return reason code when another bank returned it (R01, R02, ...). */
  return_code: string | null;
  /** The D1 rule that held it for review; null when none did. Its money stays reserved (pending) until staff decide. */
  review_rule: string | null;
  created_at: Date;
  updated_at: Date;
}

export const paymentColumns = `id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
  counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details, payee_key,
  message, rail, settle_at, status_reason, failure_code, funding_source_id, return_code, review_rule, created_at, updated_at`;

export interface NewPayment {
  id: string;
  customerId: string;
  kind: PaymentKind;
  fromAccountId: string | null;
  toAccountId: string | null;
  amountCents: bigint;
  counterpartyName: string;
  counterpartyAccountNumber?: string | null;
  counterpartyBankName?: string | null;
  counterpartyRouteNumber?: string | null;
  counterpartyCountry?: string | null;
  details?: Record<string, string>;
  cardNumberEncrypted?: Buffer | null;
  payeeKey?: string | null;
  message: string;
  rail?: Rail | null;
  fundingSourceId?: string | null;
  reviewRule?: string | null;
}

export async function insertPayment(db: Queryable, payment: NewPayment): Promise<PaymentRow> {
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details,
       card_number_encrypted, payee_key, message, rail, funding_source_id, review_rule)
     VALUES ($1, $2, $3, 'creating', $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18)
     RETURNING ${paymentColumns}`,
    [
      payment.id,
      payment.customerId,
      payment.kind,
      payment.fromAccountId,
      payment.toAccountId,
      payment.amountCents.toString(),
      payment.counterpartyName,
      payment.counterpartyAccountNumber ?? null,
      payment.counterpartyBankName ?? null,
      payment.counterpartyRouteNumber ?? null,
      payment.counterpartyCountry ?? null,
      JSON.stringify(payment.details ?? {}),
      payment.cardNumberEncrypted ?? null,
      payment.payeeKey ?? null,
      payment.message,
      payment.rail ?? null,
      payment.fundingSourceId ?? null,
      payment.reviewRule ?? null,
    ],
    { name: 'payments_insert' },
  );
  if (!row) throw new Error(`payment ${payment.id} was not inserted`);
  return row;
}

/**
 * A payment written once, finished, beside the transfer that moved its money in the same
 * transaction (move-money.ts: loan disbursements and repayments, referral bonuses). Written once:
 * a second write of the same id (a rerun of the same movement) leaves the first and answers nothing.
 */
export interface FinishedPayment {
  id: string;
  customerId: string;
  kind: PaymentKind;
  fromAccountId: string | null;
  toAccountId: string | null;
  amountCents: bigint;
  counterpartyName: string;
  message: string;
}

export async function insertFinishedPayment(db: Queryable, payment: FinishedPayment, clock?: Clock): Promise<PaymentRow | undefined> {
  // Dated by the clock that dated its ledger transfer (the database's now() without one): the end-of-day job's sandbox time machine dates both ahead.
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message, created_at, updated_at)
     VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()), coalesce($9::timestamptz, now()))
     ON CONFLICT (id) DO NOTHING RETURNING ${paymentColumns}`,
    [
      payment.id,
      payment.customerId,
      payment.kind,
      payment.fromAccountId,
      payment.toAccountId,
      payment.amountCents,
      payment.counterpartyName,
      payment.message,
      sqlInstant(clock),
    ],
  );
  return row;
}

/** The ledger accounts of these customer accounts, by customer account id (move-money.ts). */
export async function ledgerAccountIdsOf(db: Queryable, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; ledger_account_id: string }>('SELECT id, ledger_account_id FROM customer_accounts WHERE id = ANY($1::uuid[])', [
    accountIds,
  ]);
  return new Map(rows.map((row) => [row.id, row.ledger_account_id]));
}

/**
 * The history line of a debit-card purchase (card-purchases.ts): 'pending' while its authorisation
 * holds the money, or 'rejected' with the reason when it was declined. Written once per authorisation.
 */
export interface CardPurchaseRow {
  id: string;
  customerId: string;
  status: 'pending' | 'rejected';
  statusReason: string | null;
  fromAccountId: string;
  amountCents: bigint;
  merchantName: string;
  cardLabel: string;
  details: Record<string, string>;
}

export async function insertCardPurchasePayment(db: Queryable, line: CardPurchaseRow): Promise<void> {
  await db.query(
    // The merchant is the line's message too, so a history search, a statement and a receipt name it.
    `INSERT INTO payments (id, customer_id, kind, status, status_reason, from_account_id, amount_cents, counterparty_name, counterparty_account_number, message, details)
     VALUES ($1, $2, 'card', $3, $4, $5, $6, $7, $8, $7, $9::jsonb) ON CONFLICT (id) DO NOTHING`,
    [
      line.id,
      line.customerId,
      line.status,
      line.statusReason,
      line.fromAccountId,
      line.amountCents,
      line.merchantName,
      line.cardLabel,
      JSON.stringify(line.details),
    ],
  );
}

/**
 * Several new payments in one statement (decision 044); the rows come back in the order given.
 * Each is 'creating' unless it comes with the status its ledger transfer already decided (a
 * payment between one's own accounts is written once, finished: decision 044).
 */
export async function insertPayments(db: Queryable, payments: readonly (NewPayment & { decided?: PaymentChange })[]): Promise<PaymentRow[]> {
  if (payments.length === 0) return [];
  const column = <T>(pick: (payment: NewPayment & { decided?: PaymentChange }) => T) => payments.map(pick);
  const rows = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details,
       card_number_encrypted, payee_key, message, rail, funding_source_id, review_rule, settle_at, failure_code)
     SELECT id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details::jsonb,
       decode(card_number_encrypted, 'hex'), payee_key, message, rail, funding_source_id, review_rule, settle_at, failure_code
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[],
                   $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::uuid[], $18::text[],
                   $19::text[], $20::timestamptz[], $21::text[])
            AS p (id, customer_id, kind, from_account_id, to_account_id, amount_cents, counterparty_name, counterparty_account_number,
                  counterparty_bank_name, counterparty_route_number, counterparty_country, details, card_number_encrypted, payee_key,
                  message, rail, funding_source_id, review_rule, status, settle_at, failure_code)
     RETURNING ${paymentColumns}`,
    [
      column((p) => p.id),
      column((p) => p.customerId),
      column((p) => p.kind),
      column((p) => p.fromAccountId),
      column((p) => p.toAccountId),
      column((p) => p.amountCents.toString()),
      column((p) => p.counterpartyName),
      column((p) => p.counterpartyAccountNumber ?? null),
      column((p) => p.counterpartyBankName ?? null),
      column((p) => p.counterpartyRouteNumber ?? null),
      column((p) => p.counterpartyCountry ?? null),
      column((p) => JSON.stringify(p.details ?? {})),
      column((p) => p.cardNumberEncrypted?.toString('hex') ?? null),
      column((p) => p.payeeKey ?? null),
      column((p) => p.message),
      column((p) => p.rail ?? null),
      column((p) => p.fundingSourceId ?? null),
      column((p) => p.reviewRule ?? null),
      column((p) => p.decided?.status ?? 'creating'),
      column((p) => p.decided?.settleAt ?? null),
      column((p) => p.decided?.failureCode ?? null),
    ],
    { name: 'payments_insert_many_decided' },
  );
  return inOrderOf(payments, rows);
}

/** The rows in the order of the ids given; a missing one is a defect. */
function inOrderOf(wanted: readonly { id: string }[], rows: readonly PaymentRow[]): PaymentRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.map(({ id }) => {
    const row = byId.get(id);
    if (!row) throw new Error(`payment ${id} was not written`);
    return row;
  });
}

export interface PaymentChange {
  id: string;
  status: StoredPaymentStatus;
  settleAt: Date | null;
  failureCode: string | null;
}

/**
 * Moves several payments out of 'creating' in one statement (decision 044). Returns the rows that
 * moved, by id; a payment no longer 'creating' (someone else recorded it) is left out.
 */
export async function transitionFromCreating(db: Queryable, changes: readonly PaymentChange[]): Promise<Map<string, PaymentRow>> {
  if (changes.length === 0) return new Map();
  const rows = await db.query<PaymentRow>(
    `UPDATE payments p SET status = c.status, settle_at = c.settle_at, failure_code = coalesce(c.failure_code, p.failure_code), updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) AS c (id, status, settle_at, failure_code)
      WHERE p.id = c.id AND p.status = 'creating'
     RETURNING ${qualifiedPaymentColumns}`,
    [changes.map((c) => c.id), changes.map((c) => c.status), changes.map((c) => c.settleAt), changes.map((c) => c.failureCode)],
    { name: 'payments_transition_from_creating' },
  );
  return new Map(rows.map((row) => [row.id, row]));
}

const qualifiedPaymentColumns = paymentColumns
  .split(',')
  .map((column) => `p.${column.trim()}`)
  .join(', ');

export async function findPayment(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<PaymentRow>(`SELECT ${paymentColumns} FROM payments WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** Moves a payment from one status to the next; false when it was no longer in `from` (someone else decided). */
export async function transitionPayment(
  db: Queryable,
  id: string,
  from: readonly StoredPaymentStatus[],
  to: { status: StoredPaymentStatus; settleAt?: Date | null; statusReason?: string | null; failureCode?: string | null; returnCode?: string | null },
): Promise<PaymentRow | undefined> {
  const [row] = await db.query<PaymentRow>(
    `UPDATE payments SET status = $3, settle_at = $4, status_reason = coalesce($5, status_reason), failure_code = coalesce($6, failure_code),
       return_code = coalesce($7, return_code), updated_at = now()
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING ${paymentColumns}`,
    [id, from, to.status, to.settleAt ?? null, to.statusReason ?? null, to.failureCode ?? null, to.returnCode ?? null],
    { name: 'payments_transition' },
  );
  return row;
}

export async function listPaymentsByStatus(db: Queryable, customerId: string, status: StoredPaymentStatus, limit: number): Promise<PaymentRow[]> {
  return db.query<PaymentRow>(`SELECT ${paymentColumns} FROM payments WHERE customer_id = $1 AND status = $2 ORDER BY created_at DESC, id DESC LIMIT $3`, [
    customerId,
    status,
    limit,
  ]);
}

/**
 * Pending payments whose rail is due, locked so that two workers never settle the same one.
 * `exceptKinds` stay pending whatever their time says (deposits in production wait for the rail).
 */
export async function claimDuePayments(tx: Queryable, limit: number, exceptKinds: readonly PaymentKind[] = []): Promise<PaymentRow[]> {
  return tx.query<PaymentRow>(
    `SELECT ${paymentColumns} FROM payments WHERE status = 'pending' AND settle_at <= now() AND kind <> ALL($2::text[])
     ORDER BY settle_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit, exceptKinds],
  );
}

/** A deposit returned after it cleared: its reversal is due until written (rail-outcomes.ts). */
export async function markReversalDue(tx: Queryable, paymentId: string): Promise<void> {
  await tx.query('UPDATE payments SET reversal_due = true WHERE id = $1', [paymentId]);
}

/** True for the one caller that cleared it: only that one tells the customer. */
export async function clearReversalDue(tx: Queryable, paymentId: string): Promise<boolean> {
  const rows = await tx.query('UPDATE payments SET reversal_due = false WHERE id = $1 AND reversal_due RETURNING id', [paymentId]);
  return rows.length === 1;
}

export async function paymentsWithReversalDue(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM payments WHERE reversal_due ORDER BY id LIMIT $1', [limit]);
  return rows.map((row) => row.id);
}

/** Payments decided (completed, rejected or returned) whose pending transfer the ledger still holds pending. */
export async function decisionsNotInLedger(db: Queryable, limit: number): Promise<{ id: string; status: StoredPaymentStatus }[]> {
  return db.query<{ id: string; status: StoredPaymentStatus }>(
    `SELECT p.id, p.status FROM payments p JOIN pending_transfer_states s ON s.pending_id = p.id
     WHERE s.state = 'pending' AND p.status IN ('completed', 'rejected', 'returned') LIMIT $1`,
    [limit],
  );
}

export interface HeldPaymentRow {
  id: string;
  kind: string;
  amount_cents: bigint;
  counterparty_name: string;
  customer: string;
  created_at: Date;
  rule: string | null;
}

/** Payments waiting for a review decision, oldest first, with the customer's email and the rule that held each. */
export async function listHeldPayments(db: Queryable, limit: number): Promise<HeldPaymentRow[]> {
  return db.query<HeldPaymentRow>(
    `SELECT p.id, p.kind, p.amount_cents, p.counterparty_name, c.email AS customer, p.created_at, p.review_rule AS rule
     FROM payments p JOIN customers c ON c.id = p.customer_id WHERE p.status = 'in_review' ORDER BY p.created_at LIMIT $1`,
    [limit],
  );
}
