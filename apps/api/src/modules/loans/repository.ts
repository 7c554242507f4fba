import type { LoanStatus } from '@strongroom/contracts/loans.ts';
import type { Queryable } from '../../db/database.ts';
import type { KeysetPosition } from '../../platform/keyset-cursor.ts';
import type { ScheduledInstalment } from './schedule.ts';

export interface LoanRow {
  id: string;
  customer_id: string;
  status: LoanStatus;
  marital_status: string;
  occupation: string;
  address: string;
  purpose: string;
  requested_amount_cents: bigint;
  annual_income_cents: bigint;
  duration_months: number;
  checking_account_id: string;
  amount_cents: bigint | null;
  apr_bps: number | null;
  term_months: number | null;
  amount_financed_cents: bigint | null;
  finance_charge_cents: bigint | null;
  disclosed_apr_centi_bps: number | null;
  total_of_payments_cents: bigint | null;
  disbursement_transfer_id: string | null;
  disbursed_on: string | null;
  disbursed_at: Date | null;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  paid_off_at: Date | null;
  offer_expires_at: Date | null;
  answered_at: Date | null;
  created_at: Date;
  created_text: string;
}

export interface InstalmentRow {
  loan_id: string;
  number: number;
  due_date: string;
  payment_cents: bigint;
  principal_cents: bigint;
  interest_cents: bigint;
  balance_after_cents: bigint;
  status: 'due' | 'paid' | 'late';
  repayment_id: string | null;
  late_notified_on: string | null;
}

const loanColumns = `l.id, l.customer_id, l.status, l.marital_status, l.occupation, l.address, l.purpose, l.requested_amount_cents,
  l.annual_income_cents, l.duration_months, l.checking_account_id, l.amount_cents, l.apr_bps, l.term_months, l.amount_financed_cents,
  l.finance_charge_cents, l.disclosed_apr_centi_bps, l.total_of_payments_cents, l.disbursement_transfer_id,
  to_char(l.disbursed_on, 'YYYY-MM-DD') AS disbursed_on, l.disbursed_at, l.decision_reason, l.decided_by, l.decided_at, l.paid_off_at,
  l.offer_expires_at, l.answered_at, l.created_at, l.created_at::text AS created_text`;

const instalmentColumnsOf = (alias: string) => `${alias}.loan_id, ${alias}.number, to_char(${alias}.due_date, 'YYYY-MM-DD') AS due_date,
  ${alias}.payment_cents, ${alias}.principal_cents, ${alias}.interest_cents, ${alias}.balance_after_cents, ${alias}.status, ${alias}.repayment_id,
  to_char(${alias}.late_notified_on, 'YYYY-MM-DD') AS late_notified_on`;
const instalmentColumns = instalmentColumnsOf('loan_instalments');

export interface NewLoan {
  id: string;
  customerId: string;
  maritalStatus: string;
  occupation: string;
  address: string;
  purpose: string;
  requestedAmountCents: bigint;
  annualIncomeCents: bigint;
  durationMonths: number;
  checkingAccountId: string;
}

/** False when the customer already has an application waiting (the partial unique index). */
export async function insertLoan(tx: Queryable, loan: NewLoan): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO loans (id, customer_id, status, marital_status, occupation, address, purpose, requested_amount_cents, annual_income_cents,
                        duration_months, checking_account_id)
     VALUES ($1, $2, 'submitted', $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (customer_id) WHERE status = 'submitted' DO NOTHING RETURNING id`,
    [
      loan.id,
      loan.customerId,
      loan.maritalStatus,
      loan.occupation,
      loan.address,
      loan.purpose,
      loan.requestedAmountCents,
      loan.annualIncomeCents,
      loan.durationMonths,
      loan.checkingAccountId,
    ],
  );
  return rows.length === 1;
}

export async function findLoan(db: Queryable, id: string, options: { lock?: boolean } = {}): Promise<LoanRow | undefined> {
  const [row] = await db.query<LoanRow>(`SELECT ${loanColumns} FROM loans l WHERE l.id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** A customer's loans, newest first; a customer holds few, and this is bounded all the same. */
export async function listCustomerLoans(db: Queryable, customerId: string, limit: number): Promise<LoanRow[]> {
  return db.query<LoanRow>(`SELECT ${loanColumns} FROM loans l WHERE l.customer_id = $1 ORDER BY l.created_at DESC, l.id DESC LIMIT $2`, [customerId, limit]);
}

export async function countLoansWithStatus(db: Queryable, customerId: string, statuses: readonly LoanStatus[]): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM loans WHERE customer_id = $1 AND status = ANY($2::text[])', [
    customerId,
    statuses,
  ]);
  return row?.count ?? 0;
}

/** An offer still waiting for the customer's answer (after the lapse of those past their window). */
export async function hasOpenOffer(db: Queryable, customerId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM loans WHERE customer_id = $1 AND status = 'offered'`, [customerId]);
  return rows.length > 0;
}

export async function hasOpenApplication(db: Queryable, customerId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM loans WHERE customer_id = $1 AND status = 'submitted'`, [customerId]);
  return rows.length > 0;
}

/** The queue, oldest first, after the cursor; one row more than the page tells whether another page follows. */
export async function listLoansByStatus(
  db: Queryable,
  status: LoanStatus,
  after: KeysetPosition | undefined,
  limit: number,
): Promise<{ rows: LoanRow[]; total: number }> {
  const rows = after
    ? await db.query<LoanRow>(
        `SELECT ${loanColumns} FROM loans l WHERE l.status = $1 AND (l.created_at, l.id) > ($2::timestamptz, $3::uuid) ORDER BY l.created_at, l.id LIMIT $4`,
        [status, after.at, after.id, limit + 1],
      )
    : await db.query<LoanRow>(`SELECT ${loanColumns} FROM loans l WHERE l.status = $1 ORDER BY l.created_at, l.id LIMIT $2`, [status, limit + 1]);
  const [count] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM loans WHERE status = $1', [status]);
  return { rows, total: count?.total ?? 0 };
}

export async function rejectLoan(tx: Queryable, loanId: string, decision: { reason: string; staffId: string }): Promise<void> {
  await tx.query(`UPDATE loans SET status = 'rejected', decision_reason = $2, decided_by = $3, decided_at = now() WHERE id = $1 AND status = 'submitted'`, [
    loanId,
    decision.reason,
    decision.staffId,
  ]);
}

export interface Offer {
  amountCents: bigint;
  aprBps: number;
  termMonths: number;
  reason: string;
  staffId: string;
  /** How long the customer has to accept, in seconds from now. */
  windowSeconds: number;
  disclosure: { amountFinancedCents: bigint; financeChargeCents: bigint; aprCentiBps: number; totalOfPaymentsCents: bigint };
}

/** An approval: the terms and their disclosure are fixed, the loan waits for the customer's answer; nothing is paid. */
export async function offerLoan(tx: Queryable, loanId: string, offer: Offer): Promise<void> {
  await tx.query(
    `UPDATE loans SET status = 'offered', amount_cents = $2, apr_bps = $3, term_months = $4, decision_reason = $5, decided_by = $6, decided_at = now(),
            offer_expires_at = now() + make_interval(secs => $7::int), amount_financed_cents = $8, finance_charge_cents = $9,
            disclosed_apr_centi_bps = $10, total_of_payments_cents = $11
     WHERE id = $1 AND status = 'submitted'`,
    [
      loanId,
      offer.amountCents,
      offer.aprBps,
      offer.termMonths,
      offer.reason,
      offer.staffId,
      offer.windowSeconds,
      offer.disclosure.amountFinancedCents,
      offer.disclosure.financeChargeCents,
      offer.disclosure.aprCentiBps,
      offer.disclosure.totalOfPaymentsCents,
    ],
  );
}

/** The customer's acceptance: the loan is `active` and its disbursement fixed (the money moves next, under this transfer id). */
export async function acceptOffer(tx: Queryable, loanId: string, acceptance: { disbursementTransferId: string; disbursedOn: string }): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE loans SET status = 'active', answered_at = now(), disbursement_transfer_id = $2, disbursed_on = $3::date, disbursed_at = now()
     WHERE id = $1 AND status = 'offered' AND offer_expires_at > now() RETURNING id`,
    [loanId, acceptance.disbursementTransferId, acceptance.disbursedOn],
  );
  return rows.length === 1;
}

export async function declineOffer(tx: Queryable, loanId: string): Promise<boolean> {
  const rows = await tx.query(`UPDATE loans SET status = 'declined', answered_at = now() WHERE id = $1 AND status = 'offered' RETURNING id`, [loanId]);
  return rows.length === 1;
}

/** Offers past their window lapse (`expired`): of one customer, or of everyone (the daily job). Returns the lapsed loans. */
export async function lapseOffers(db: Queryable, scope: { customerId?: string; loanId?: string } = {}): Promise<{ id: string; customer_id: string }[]> {
  return db.query<{ id: string; customer_id: string }>(
    `UPDATE loans SET status = 'expired'
     WHERE status = 'offered' AND offer_expires_at <= now() AND ($1::uuid IS NULL OR customer_id = $1) AND ($2::uuid IS NULL OR id = $2)
     RETURNING id, customer_id`,
    [scope.customerId ?? null, scope.loanId ?? null],
  );
}

export async function markPaidOff(tx: Queryable, loanId: string): Promise<void> {
  await tx.query(`UPDATE loans SET status = 'paid_off', paid_off_at = now() WHERE id = $1 AND status = 'active'`, [loanId]);
}

export async function insertInstalments(tx: Queryable, loanId: string, lines: readonly ScheduledInstalment[]): Promise<void> {
  for (const line of lines) {
    await tx.query(
      `INSERT INTO loan_instalments (loan_id, number, due_date, payment_cents, principal_cents, interest_cents, balance_after_cents)
       VALUES ($1, $2, $3::date, $4, $5, $6, $7)`,
      [loanId, line.number, line.dueDate, line.paymentCents, line.principalCents, line.interestCents, line.balanceAfterCents],
    );
  }
}

/** The unpaid instalments give way to a new plan after an early repayment. */
export async function deleteUnpaidInstalments(tx: Queryable, loanId: string): Promise<void> {
  await tx.query(`DELETE FROM loan_instalments WHERE loan_id = $1 AND status <> 'paid'`, [loanId]);
}

export async function listInstalments(db: Queryable, loanId: string): Promise<InstalmentRow[]> {
  return db.query<InstalmentRow>(`SELECT ${instalmentColumns} FROM loan_instalments WHERE loan_id = $1 ORDER BY number`, [loanId]);
}

/** The next unpaid instalment of each of these loans (for the list of loans). */
export async function nextUnpaidInstalments(db: Queryable, loanIds: readonly string[]): Promise<InstalmentRow[]> {
  if (loanIds.length === 0) return [];
  return db.query<InstalmentRow>(
    `SELECT DISTINCT ON (loan_id) ${instalmentColumns} FROM loan_instalments WHERE loan_id = ANY($1::uuid[]) AND status <> 'paid' ORDER BY loan_id, number`,
    [loanIds],
  );
}

/** The first unpaid instalment of every active loan that is due on or before the day, oldest first. */
export async function dueInstalments(db: Queryable, asOf: string, limit: number): Promise<(InstalmentRow & { customer_id: string })[]> {
  return db.query(
    `SELECT DISTINCT ON (i.loan_id) ${instalmentColumnsOf('i')}, l.customer_id
     FROM loan_instalments i JOIN loans l ON l.id = i.loan_id
     WHERE l.status = 'active' AND i.status <> 'paid' AND i.due_date <= $1::date
     ORDER BY i.loan_id, i.number LIMIT $2`,
    [asOf, limit],
  );
}

export async function markInstalmentPaid(tx: Queryable, loanId: string, number: number, repaymentId: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE loan_instalments SET status = 'paid', repayment_id = $3, paid_at = now() WHERE loan_id = $1 AND number = $2 AND status <> 'paid' RETURNING number`,
    [loanId, number, repaymentId],
  );
  return rows.length === 1;
}

/** Part of a late instalment paid by the customer: what is left of it stays late, to be collected next. */
export async function reduceInstalment(tx: Queryable, loanId: string, number: number, paid: { principalCents: bigint; interestCents: bigint }): Promise<void> {
  await tx.query(
    `UPDATE loan_instalments SET payment_cents = payment_cents - $3 - $4, principal_cents = principal_cents - $3, interest_cents = interest_cents - $4
     WHERE loan_id = $1 AND number = $2 AND status <> 'paid'`,
    [loanId, number, paid.principalCents, paid.interestCents],
  );
}

/** Marks it late; true when the customer has not yet been told today (and records that they now are). */
export async function markInstalmentLate(tx: Queryable, loanId: string, number: number, asOf: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE loan_instalments SET status = 'late', late_notified_on = $3::date
     WHERE loan_id = $1 AND number = $2 AND status <> 'paid' AND (late_notified_on IS NULL OR late_notified_on < $3::date) RETURNING number`,
    [loanId, number, asOf],
  );
  return rows.length === 1;
}

export interface NewRepayment {
  id: string;
  loanId: string;
  kind: 'instalment' | 'early';
  instalmentNumber: number | null;
  principalCents: bigint;
  interestCents: bigint;
  interestTransferId: string | null;
}

export async function insertRepayment(tx: Queryable, repayment: NewRepayment): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO loan_repayments (id, loan_id, kind, instalment_number, amount_cents, principal_cents, interest_cents, interest_transfer_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      repayment.id,
      repayment.loanId,
      repayment.kind,
      repayment.instalmentNumber,
      repayment.principalCents + repayment.interestCents,
      repayment.principalCents,
      repayment.interestCents,
      repayment.interestTransferId,
    ],
  );
  return rows.length === 1;
}

export async function sumEarlyPrincipal(db: Queryable, loanId: string): Promise<bigint> {
  const [row] = await db.query<{ total: bigint }>(
    `SELECT coalesce(sum(principal_cents), 0)::bigint AS total FROM loan_repayments WHERE loan_id = $1 AND kind = 'early'`,
    [loanId],
  );
  return row?.total ?? 0n;
}

export interface LoanAccountRow {
  id: string;
  customer_id: string;
  type: 'checking' | 'savings';
  ledger_account_id: string;
  /** Set once a returned deposit has taken the account below zero (accounts/owed.ts). */
  owed_ledger_account_id: string | null;
}

/** One of the customer's open accounts by id; someone else's answers like a missing one. */
export async function findCustomerAccount(db: Queryable, customerId: string, accountId: string): Promise<LoanAccountRow | undefined> {
  const [row] = await db.query<LoanAccountRow>(
    `SELECT id, customer_id, type, ledger_account_id, owed_ledger_account_id FROM customer_accounts WHERE id = $1 AND customer_id = $2 AND status <> 'closed'`,
    [accountId, customerId],
  );
  return row;
}

export async function findCheckingAccount(db: Queryable, customerId: string): Promise<LoanAccountRow | undefined> {
  const [row] = await db.query<LoanAccountRow>(
    `SELECT id, customer_id, type, ledger_account_id, owed_ledger_account_id FROM customer_accounts
      WHERE customer_id = $1 AND type = 'checking' AND status <> 'closed' ORDER BY opened_at LIMIT 1`,
    [customerId],
  );
  return row;
}

export async function ledgerAccountOf(db: Queryable, accountId: string): Promise<string> {
  const [row] = await db.query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]);
  if (!row) throw new Error(`customer account ${accountId} is missing`);
  return row.ledger_account_id;
}

/**
 * Money that came into the checking account over the last `days` days, from the ledger (D8):
 * posted transfers (or posts of pending ones) credited to it, except from the customer's own
 * accounts and except the bank's own loan disbursements, which are not income.
 */
export async function recentIncomeCents(db: Queryable, checkingAccountId: string, days: number, loanDisbursementCode: number): Promise<bigint> {
  const [row] = await db.query<{ total: bigint }>(
    `WITH checking AS (SELECT ledger_account_id AS id, customer_id FROM customer_accounts WHERE id = $1),
          own AS (SELECT ledger_account_id AS id FROM customer_accounts WHERE customer_id = (SELECT customer_id FROM checking))
     SELECT coalesce(sum(t.amount), 0)::bigint AS total
     FROM ledger_transfers t
     WHERE t.credit_account_id = (SELECT id FROM checking) AND t.flags & 10 = 0 AND t.code <> $3
       AND t.debit_account_id NOT IN (SELECT id FROM own) AND t.created_at >= now() - make_interval(days => $2)`,
    [checkingAccountId, days, loanDisbursementCode],
  );
  return row?.total ?? 0n;
}

/** How long a lease on a loan's money lasts: far longer than one ledger call, short enough that a crash's lease soon lapses. */
export const loanLeaseSeconds = 120;

/** Takes the loan's lease (active loans only); false while another movement of its money holds it. */
export async function leaseLoan(db: Queryable, loanId: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE loans SET busy_until = now() + make_interval(secs => $2)
     WHERE id = $1 AND status = 'active' AND (busy_until IS NULL OR busy_until < now()) RETURNING id`,
    [loanId, loanLeaseSeconds],
  );
  return rows.length === 1;
}

export async function releaseLoan(db: Queryable, loanId: string): Promise<void> {
  await db.query('UPDATE loans SET busy_until = NULL WHERE id = $1', [loanId]);
}

/** Who decided, as the back office names staff: by email (the id means nothing to the next person). */
export async function staffEmailOf(db: Queryable, staffId: string): Promise<string> {
  const [row] = await db.query<{ email: string }>('SELECT email FROM staff WHERE id = $1', [staffId]);
  return row?.email ?? staffId;
}
