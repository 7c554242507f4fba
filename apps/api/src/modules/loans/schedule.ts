import { levelPaymentCents as sharedLevelPaymentCents } from '@strongroom/contracts/loans.ts';
/**
 * A loan's repayment schedule and its Truth in Lending disclosure, as pure functions of the terms.
 * No floating point touches money or rates: the monthly rate is the rational aprBps / 120,000, the
 * level payment P·r / (1 − (1 + r)^−n) is computed as an exact fraction of bigints and rounded once,
 * half-up, to the cent (docs/product.md section 6 "Loans").
 */

/** A monthly rate aprBps / 120,000: APR in basis points over 10,000 (a fraction) over 12 (months). */
const monthlyRateDenominator = 120_000n;
/** No term is longer than this; a limit on the work the APR search does. */
const maxScheduleMonths = 600;

export interface LoanTerms {
  principalCents: bigint;
  aprBps: number;
  termMonths: number;
  /** YYYY-MM-DD: the day the money was paid out; the first instalment is due one month later. */
  disbursedOn: string;
}

export interface ScheduledInstalment {
  number: number;
  dueDate: string;
  paymentCents: bigint;
  principalCents: bigint;
  interestCents: bigint;
  balanceAfterCents: bigint;
}

export interface LoanDisclosure {
  amountFinancedCents: bigint;
  financeChargeCents: bigint;
  /** Computed from the schedule by the actuarial method, in basis points to two decimals. */
  aprBps: number;
  totalOfPaymentsCents: bigint;
}

function assertTerms(principalCents: bigint, aprBps: number, termMonths: number): void {
  if (principalCents <= 0n) throw new RangeError('a loan lends a positive amount');
  if (!Number.isInteger(aprBps) || aprBps < 0) throw new RangeError('an APR is a non-negative whole number of basis points');
  if (!Number.isInteger(termMonths) || termMonths < 1 || termMonths > maxScheduleMonths) {
    throw new RangeError(`a term is 1 to ${maxScheduleMonths} whole months`);
  }
}

/** numerator / denominator rounded half-up, for a non-negative numerator and a positive denominator. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('half-up division here takes a non-negative fraction');
  return (2n * numerator + denominator) / (2n * denominator);
}

/** The interest a balance earns in one month at this APR, rounded half-up to the cent. */
export function monthlyInterestCents(balanceCents: bigint, aprBps: number): bigint {
  return divideRoundHalfUp(balanceCents * BigInt(aprBps), monthlyRateDenominator);
}

/** The level monthly payment, rounded once half-up to the cent (the formula is shared with the web's estimate, contracts/loans.ts). */
export function levelPaymentCents(principalCents: bigint, aprBps: number, termMonths: number): bigint {
  assertTerms(principalCents, aprBps, termMonths);
  return sharedLevelPaymentCents(principalCents, aprBps, termMonths);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** YYYY-MM-DD plus whole months, clamped to the month's end (January 31 + 1 month = February 28 or 29). */
export function addMonths(date: string, months: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const total = Number(match[1]) * 12 + (Number(match[2]) - 1) + months;
  const year = Math.floor(total / 12);
  const monthIndex = total % 12;
  const day = Math.min(Number(match[3]), daysInMonth(year, monthIndex));
  return `${String(year).padStart(4, '0')}-${String(monthIndex + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Equal monthly instalments on a declining balance. Each month's interest is the balance times the
 * monthly rate, rounded half-up; the rest of the payment is principal; the last instalment takes
 * whatever principal remains, so the principal sums to the amount exactly. A principal share is
 * never negative nor more than the balance: in the corner case where rounding would let the balance
 * reach zero early (a few cents lent over many months) the schedule simply ends there.
 */
export function buildSchedule(terms: LoanTerms): ScheduledInstalment[] {
  const { principalCents, aprBps, termMonths, disbursedOn } = terms;
  const payment = levelPaymentCents(principalCents, aprBps, termMonths);
  return amortise({
    balanceCents: principalCents,
    aprBps,
    paymentCents: payment,
    firstNumber: 1,
    count: termMonths,
    dueDateOf: (number) => addMonths(disbursedOn, number),
  });
}

export interface AmortisationInput {
  balanceCents: bigint;
  aprBps: number;
  paymentCents: bigint;
  firstNumber: number;
  /** How many instalments at most, the last taking the remainder. */
  count: number;
  dueDateOf: (number: number) => string;
}

/** The instalments that pay off a balance at a fixed payment (also used after an early repayment). */
export function amortise(input: AmortisationInput): ScheduledInstalment[] {
  const { aprBps, paymentCents, firstNumber, count, dueDateOf } = input;
  if (count < 1 || count > maxScheduleMonths) throw new RangeError('a schedule has 1 to 600 instalments');
  const lines: ScheduledInstalment[] = [];
  let balance = input.balanceCents;
  for (let index = 0; index < count && balance > 0n; index += 1) {
    const interest = monthlyInterestCents(balance, aprBps);
    const last = index === count - 1;
    let principal = last ? balance : paymentCents - interest;
    if (principal < 0n) principal = 0n;
    if (principal > balance) principal = balance;
    balance -= principal;
    const number = firstNumber + index;
    lines.push({
      number,
      dueDate: dueDateOf(number),
      paymentCents: principal + interest,
      principalCents: principal,
      interestCents: interest,
      balanceAfterCents: balance,
    });
  }
  if (balance !== 0n) throw new Error('a schedule must end with nothing owed');
  return lines;
}

/**
 * The present value of the payments at a monthly rate N / D, compared with the amount financed:
 * sign of (Σ p_k · D^k · (D + N)^(n − k)) − P · (D + N)^n, which is the sign of Σ p_k / (1 + i)^k − P.
 * Exact: bigints only.
 */
function presentValueComparedWithAmount(payments: readonly bigint[], amountCents: bigint, rateNumerator: bigint, rateDenominator: bigint): number {
  const growth = rateDenominator + rateNumerator;
  // Horner's scheme over k = 1..n, each payment weighted by D^k: sum = Σ p_k · D^k · G^(n − k).
  let sum = 0n;
  let discount = 1n;
  for (const payment of payments) {
    discount *= rateDenominator;
    sum = sum * growth + payment * discount;
  }
  const target = amountCents * growth ** BigInt(payments.length);
  return sum === target ? 0 : sum > target ? 1 : -1;
}

/** APRs the search looks between, in millionths of a basis point (0% to 1,000%). */
const aprSearchScale = 1_000_000n;
const aprSearchCeiling = 100_000n * aprSearchScale;

/**
 * The annual percentage rate of a payment stream by the actuarial method (Reg Z Appendix J): the
 * monthly rate i at which the payments, discounted a whole month each, equal the amount financed;
 * APR = 12 · i. Bisection on the APR in millionths of a basis point, every present value exact;
 * the answer is rounded half-up to hundredths of a basis point.
 */
export function actuarialAprBps(amountFinancedCents: bigint, payments: readonly bigint[]): number {
  if (amountFinancedCents <= 0n || payments.length === 0) throw new RangeError('an APR needs an amount financed and payments');
  const total = payments.reduce((sum, payment) => sum + payment, 0n);
  if (total < amountFinancedCents) throw new RangeError('payments below the amount financed have no non-negative APR');
  if (total === amountFinancedCents) return 0;
  // Monthly rate = x / (scale · 10,000 · 12) for an APR of x millionths of a basis point.
  const denominator = aprSearchScale * monthlyRateDenominator;
  let low = 0n;
  let high = aprSearchCeiling;
  if (presentValueComparedWithAmount(payments, amountFinancedCents, high, denominator) > 0) throw new RangeError('an APR above 1,000% is beyond this search');
  // Invariant: the present value at `low` is above the amount, at `high` at most the amount.
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (presentValueComparedWithAmount(payments, amountFinancedCents, middle, denominator) > 0) low = middle;
    else high = middle;
  }
  const hundredths = divideRoundHalfUp(high, aprSearchScale / 100n);
  return Number(hundredths) / 100;
}

/** The Reg Z box for a schedule: nothing is financed but the principal, so the finance charge is the interest. */
export function discloseSchedule(principalCents: bigint, schedule: readonly ScheduledInstalment[]): LoanDisclosure {
  const financeChargeCents = schedule.reduce((sum, line) => sum + line.interestCents, 0n);
  const totalOfPaymentsCents = schedule.reduce((sum, line) => sum + line.paymentCents, 0n);
  if (totalOfPaymentsCents !== principalCents + financeChargeCents)
    throw new Error('the total of payments must be the amount financed plus the finance charge');
  return {
    amountFinancedCents: principalCents,
    financeChargeCents,
    aprBps: actuarialAprBps(
      principalCents,
      schedule.map((line) => line.paymentCents),
    ),
    totalOfPaymentsCents,
  };
}
