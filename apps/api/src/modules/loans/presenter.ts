import type { Disclosure, Loan, LoanDetailResponse, ScheduleLine } from '@strongroom/contracts/loans.ts';
import { centsToJson } from '../../platform/money.ts';
import type { InstalmentRow, LoanRow } from './repository.ts';

/** Principal still owed: the principal of the instalments not yet paid (the schedule is the one record of it). */
export function principalOwedCents(instalments: readonly Pick<InstalmentRow, 'status' | 'principal_cents'>[]): bigint {
  return instalments.filter((line) => line.status !== 'paid').reduce((sum, line) => sum + line.principal_cents, 0n);
}

/** `next`: the loan's first unpaid instalment; `owed`: its principal still owed (only for a disbursed loan). */
export function presentLoan(row: LoanRow, facts: { next: InstalmentRow | undefined; owedCents: bigint | null }): Loan {
  const disbursed = row.status === 'active' || row.status === 'paid_off';
  return {
    id: row.id,
    status: row.status,
    maritalStatus: row.marital_status,
    occupation: row.occupation,
    address: row.address,
    purpose: row.purpose,
    requestedAmountCents: centsToJson(row.requested_amount_cents),
    annualIncomeCents: centsToJson(row.annual_income_cents),
    durationMonths: row.duration_months,
    amountCents: row.amount_cents === null ? null : centsToJson(row.amount_cents),
    aprBps: row.apr_bps,
    termMonths: row.term_months,
    balanceCents: !disbursed ? null : row.status === 'paid_off' ? 0 : centsToJson(facts.owedCents ?? 0n),
    nextDueDate: row.status === 'active' ? (facts.next?.due_date ?? null) : null,
    nextPaymentCents: row.status === 'active' && facts.next ? centsToJson(facts.next.payment_cents) : null,
    rejectionReason: row.status === 'rejected' ? row.decision_reason : null,
    offerExpiresAt: row.offer_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    disbursedAt: row.disbursed_at?.toISOString() ?? null,
  };
}

export function presentScheduleLine(line: InstalmentRow): ScheduleLine {
  return {
    number: line.number,
    dueDate: line.due_date,
    paymentCents: centsToJson(line.payment_cents),
    principalCents: centsToJson(line.principal_cents),
    interestCents: centsToJson(line.interest_cents),
    balanceAfterCents: centsToJson(line.balance_after_cents),
    status: line.status,
  };
}

/** The disclosure made with the offer; none before (a submitted or rejected application). */
export function presentDisclosure(row: LoanRow): Disclosure | null {
  if (row.amount_financed_cents === null || row.finance_charge_cents === null || row.disclosed_apr_centi_bps === null || row.total_of_payments_cents === null) {
    return null;
  }
  return {
    amountFinancedCents: centsToJson(row.amount_financed_cents),
    financeChargeCents: centsToJson(row.finance_charge_cents),
    aprBps: row.disclosed_apr_centi_bps / 100,
    totalOfPaymentsCents: centsToJson(row.total_of_payments_cents),
  };
}

export function presentLoanDetail(row: LoanRow, instalments: readonly InstalmentRow[]): LoanDetailResponse {
  return {
    loan: presentLoan(row, { next: instalments.find((line) => line.status !== 'paid'), owedCents: principalOwedCents(instalments) }),
    schedule: instalments.map(presentScheduleLine),
    disclosure: presentDisclosure(row),
  };
}
