import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Loan, LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { checking } from '../../test/payment-fixtures.ts';

/** Fakes for the loan screens' tests, shaped by the contract's schemas. */
export const loanId = '5b0e8f4e-2a7c-4c1e-9a55-7d7c3f1b2a10';

/** The checking account the loan pays into: the money screens' shared fake. */
export const checkingAccount: Account = checking;

export function loan(overrides: Partial<Loan> = {}): Loan {
  return {
    id: loanId,
    status: 'active',
    maritalStatus: 'single',
    occupation: 'Engineer',
    address: '1 Main Street',
    purpose: 'A car',
    requestedAmountCents: 10_000,
    annualIncomeCents: 6_000_000,
    durationMonths: 6,
    amountCents: 10_000,
    aprBps: 1_200,
    termMonths: 6,
    balanceCents: 10_000,
    nextDueDate: '2027-01-24',
    nextPaymentCents: 1_725,
    rejectionReason: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    disbursedAt: '2026-11-24T11:00:00.000Z',
    ...overrides,
  };
}

/** An offer (decision 058): approved terms, nothing paid, lapsing on Dec 24, 2026. */
export function offer(overrides: Partial<Loan> = {}): LoanDetailResponse {
  return detail(
    {
      status: 'offered',
      balanceCents: null,
      nextDueDate: null,
      nextPaymentCents: null,
      disbursedAt: null,
      offerExpiresAt: '2026-12-24T10:00:00.000Z',
      ...overrides,
    },
    { firstLate: false },
  );
}

/**
 * The published case: $100.00 at 12% over 6 months, 17.25 five times and 17.28 last, interest 3.53.
 * The first instalment is late unless `firstLate` is false.
 */
export function detail(overrides: Partial<Loan> = {}, { firstLate = true }: { firstLate?: boolean } = {}): LoanDetailResponse {
  const lines = [
    [1, '2026-12-24', 1_725, 1_625, 100, 8_375],
    [2, '2027-01-24', 1_725, 1_641, 84, 6_734],
    [3, '2027-02-24', 1_725, 1_658, 67, 5_076],
    [4, '2027-03-24', 1_725, 1_674, 51, 3_402],
    [5, '2027-04-24', 1_725, 1_691, 34, 1_711],
    [6, '2027-05-24', 1_728, 1_711, 17, 0],
  ] as const;
  return {
    loan: loan(overrides),
    schedule: lines.map(([number, dueDate, paymentCents, principalCents, interestCents, balanceAfterCents]) => ({
      number,
      dueDate,
      paymentCents,
      principalCents,
      interestCents,
      balanceAfterCents,
      status: number === 1 && firstLate ? 'late' : 'due',
    })),
    disclosure: { amountFinancedCents: 10_000, financeChargeCents: 353, aprBps: 1_200, totalOfPaymentsCents: 10_353 },
  };
}
