import type { HeldTransfer, StaffPayment, StaffRecentPayment } from '@strongroom/contracts/staff-payments.ts';
import type { Queryable } from '../../db/database.ts';
import { visibleStatus } from '../../platform/payment-status.ts';
import type { PaymentRow } from './repository.ts';
import { approvalsOf, recentPaymentsOf, type StaffPaymentRow } from './staff-repository.ts';

/** How many of the customer's newest payments a reviewer sees beside a held one. */
export const recentPaymentsShown = 8;

function cents(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER) || amount < -BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`amount ${amount} is beyond a safe integer`);
  return Number(amount);
}

function recentOf(row: PaymentRow): StaffRecentPayment {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    kind: row.kind,
    payee: row.counterparty_name,
    amountCents: cents(row.amount_cents),
    status: visibleStatus(row.status),
  };
}

/** The staff view of held payments, with each customer's recent payments and the four-eyes state, in three queries. */
export async function presentHeld(db: Queryable, rows: readonly StaffPaymentRow[], fourEyesCents: bigint): Promise<HeldTransfer[]> {
  const recent = await recentPaymentsOf(db, [...new Set(rows.map((row) => row.customer_id))], recentPaymentsShown);
  const approvals = await approvalsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: visibleStatus(row.status),
    amountCents: cents(row.amount_cents),
    message: row.message,
    rule: row.review_rule,
    heldAt: row.created_at.toISOString(),
    decidedAt: row.status === 'in_review' ? null : row.updated_at.toISOString(),
    decisionReason: row.status === 'rejected' ? row.status_reason : null,
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
    payee: {
      name: row.counterparty_name,
      accountLast4: row.counterparty_account_number ? row.counterparty_account_number.slice(-4) : null,
      bankName: row.counterparty_bank_name,
    },
    recentPayments: recent.filter((payment) => payment.customer_id === row.customer_id).map(recentOf),
    fourEyes: {
      required: row.amount_cents >= fourEyesCents,
      thresholdCents: cents(fourEyesCents),
      approvals: approvals
        .filter((approval) => approval.payment_id === row.id)
        .map((approval) => ({ staffId: approval.staff_id, email: approval.email, reason: approval.reason, approvedAt: approval.approved_at.toISOString() })),
    },
  }));
}

export function presentAtRail(row: StaffPaymentRow): StaffPayment {
  if (row.rail !== 'ach' && row.rail !== 'wire') throw new Error(`payment ${row.id} is not at the ACH or wire rail`);
  return {
    id: row.id,
    kind: row.kind,
    rail: row.rail,
    entry: row.kind === 'deposit' ? 'debit' : 'credit',
    status: visibleStatus(row.status),
    amountCents: cents(row.amount_cents),
    counterparty: row.counterparty_name,
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
    createdAt: row.created_at.toISOString(),
    expectedSettlementAt: row.settle_at?.toISOString() ?? null,
    traceNumber: row.trace_number,
  };
}
