import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { paymentAmountCentsSchema } from './payments.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Loans (docs/product.md section 6 "Loans"; seed-spec sections 2 and 5). Money is integer cents; the APR
 * is in basis points (1,250 = 12.50%).
 */
export const loanRules = {
  minAmountCents: 50_000,
  maxAmountCents: 10_000_000,
  minDurationMonths: 6,
  maxDurationMonths: 84,
  /** Staff may approve a term of 1 to 84 months and an APR of 0 to 36%. */
  minTermMonths: 1,
  maxTermMonths: 84,
  maxAprBps: 3_600,
  /** The disclosed APR must be within 1/8 of a percentage point of the note rate (Reg Z 1026.22(a)(2)). */
  aprToleranceBps: 12.5,
  /** An approval is an offer the customer may accept for this many days; then it lapses (decision 058). */
  offerWindowDays: 30,
} as const;

export const maritalStatuses = ['single', 'married', 'divorced', 'widowed', 'separated'] as const;
export const maritalStatusLabels: Readonly<Record<(typeof maritalStatuses)[number], string>> = {
  single: 'Single',
  married: 'Married',
  divorced: 'Divorced',
  widowed: 'Widowed',
  separated: 'Separated',
};

/**
 * `offered`: approved with its terms, waiting for the customer's answer (no money has moved);
 * `declined`: the customer said no; `expired`: the offer lapsed unanswered (docs/decisions/058).
 */
export const loanStatuses = ['submitted', 'rejected', 'offered', 'active', 'declined', 'expired', 'paid_off'] as const;
export const loanStatusSchema = z.enum(loanStatuses);
export type LoanStatus = z.infer<typeof loanStatusSchema>;

/** The seed's words (D11 spelling). */
export const loanMessages = {
  sent: 'Loan application sent',
  applicationOpen: 'You already have a loan application waiting for a decision.',
  offerOpen: 'You already have a loan offer waiting for your answer: accept or decline it first.',
} as const;

const requiredNumber = (what: string, min: number, max: number, boundMessage: string) =>
  z
    .number({ error: validationMessages.required })
    .refine(Number.isInteger, `${what} must be a whole number`)
    .refine((value) => value >= min && value <= max, boundMessage);

/** `POST /loans`. Full name, email and phone come from the profile, not the body. */
export const loanApplicationRequestSchema = z.object({
  maritalStatus: z.enum(maritalStatuses, { error: validationMessages.required }),
  occupation: textField(100),
  address: textField(200),
  amountCents: requiredNumber('the amount', loanRules.minAmountCents, loanRules.maxAmountCents, 'the amount is $500 to $100,000'),
  annualIncomeCents: paymentAmountCentsSchema,
  purpose: textField(300),
  durationMonths: requiredNumber('the duration', loanRules.minDurationMonths, loanRules.maxDurationMonths, 'the duration is 6 to 84 months'),
});
export type LoanApplicationRequest = z.input<typeof loanApplicationRequestSchema>;

export const scheduleLineSchema = z.object({
  number: z.number().int(),
  /** YYYY-MM-DD. */
  dueDate: z.string(),
  paymentCents: centsSchema,
  principalCents: centsSchema,
  interestCents: centsSchema,
  balanceAfterCents: centsSchema,
  status: z.enum(['due', 'paid', 'late']),
});
export type ScheduleLine = z.infer<typeof scheduleLineSchema>;

/** The Truth in Lending box (Reg Z 1026.18). */
export const disclosureSchema = z.object({
  amountFinancedCents: centsSchema,
  financeChargeCents: centsSchema,
  aprBps: z.number(),
  totalOfPaymentsCents: centsSchema,
});
export type Disclosure = z.infer<typeof disclosureSchema>;

export const loanSchema = z.object({
  id: z.string(),
  status: loanStatusSchema,
  maritalStatus: z.string(),
  occupation: z.string(),
  address: z.string(),
  purpose: z.string(),
  /** What the customer asked for. */
  requestedAmountCents: centsSchema,
  annualIncomeCents: centsSchema,
  durationMonths: z.number().int(),
  /** The approved terms (null until approved). */
  amountCents: centsSchema.nullable(),
  aprBps: z.number().int().nullable(),
  termMonths: z.number().int().nullable(),
  /** The moment an offer lapses if not accepted (null unless the loan is or was an offer). */
  offerExpiresAt: z.iso.datetime().nullable().optional(),
  /** Principal still owed (0 once paid off; null before disbursement). */
  balanceCents: centsSchema.nullable(),
  nextDueDate: z.string().nullable(),
  nextPaymentCents: centsSchema.nullable(),
  rejectionReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  disbursedAt: z.iso.datetime().nullable(),
});
export type Loan = z.infer<typeof loanSchema>;

export const loanListResponseSchema = z.object({ items: z.array(loanSchema) });
export const loanResponseSchema = z.object({ loan: loanSchema });
export const loanDetailResponseSchema = z.object({
  loan: loanSchema,
  schedule: z.array(scheduleLineSchema),
  disclosure: disclosureSchema.nullable(),
});
export type LoanDetailResponse = z.infer<typeof loanDetailResponseSchema>;

/**
 * `POST /loans/{id}/repayments` (Idempotency-Key): while an instalment is late the amount pays the
 * late amount first (interest, then principal, oldest instalment first), the rest pays principal
 * early; more than is owed is refused.
 */
export const loanRepaymentRequestSchema = z.object({
  fromAccountId: z.uuid({ error: validationMessages.required }),
  amountCents: paymentAmountCentsSchema,
});
export type LoanRepaymentRequest = z.input<typeof loanRepaymentRequestSchema>;

/** The back office's loan queue (`loans.decide`). */
export const staffLoanListQuerySchema = z.object({
  status: loanStatusSchema.default('submitted'),
  cursor: plainString().max(200).optional(),
});
export const staffLoanSchema = z.object({
  loan: loanSchema,
  customerId: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  accounts: z.array(z.object({ id: z.string(), type: z.string(), number: z.string(), availableCents: centsSchema })),
  /** Money that came into checking over the last 90 days (deposits and incoming transfers). */
  recentIncomeCents: centsSchema,
  /** The payment the requested amount and duration would cost at the suggested APR. */
  suggestedAprBps: z.number().int(),
  suggestedMonthlyPaymentCents: centsSchema,
  /** That payment as a share of the stated monthly income, in basis points (3,500 = 35%). */
  debtToIncomeBps: z.number().int(),
  /** The email of the staff member who decided (null while waiting). */
  decidedBy: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
});
export type StaffLoan = z.infer<typeof staffLoanSchema>;
export const staffLoanListSchema = z.object({ items: z.array(staffLoanSchema), nextCursor: z.string().nullable(), total: z.number().int() });
export type StaffLoanList = z.infer<typeof staffLoanListSchema>;

export const loanDecisionRequestSchema = z.discriminatedUnion(
  'decision',
  [
    z.object({
      decision: z.literal('approve'),
      reason: decisionReasonField,
      amountCents: paymentAmountCentsSchema,
      aprBps: z
        .number({ error: validationMessages.required })
        .int('the APR is a whole number of basis points')
        .min(0, 'the APR is 0% to 36%')
        .max(loanRules.maxAprBps, 'the APR is 0% to 36%'),
      termMonths: z
        .number({ error: validationMessages.required })
        .int('the term is a whole number of months')
        .min(loanRules.minTermMonths, 'the term is 1 to 84 months')
        .max(loanRules.maxTermMonths, 'the term is 1 to 84 months'),
    }),
    z.object({ decision: z.literal('reject'), reason: decisionReasonField }),
  ],
  { error: 'decision is one of: approve, reject' },
);
export type LoanDecisionRequest = z.input<typeof loanDecisionRequestSchema>;
export const staffLoanResponseSchema = z.object({ loan: staffLoanSchema });

/** `POST /loans/{id}/repayments` answers 201 with the loan as it now stands and the repayment's transfer id (its history line). */
export const loanRepaymentResponseSchema = loanDetailResponseSchema.extend({ transferId: z.string() });
export type LoanRepaymentResponse = z.infer<typeof loanRepaymentResponseSchema>;

/**
 * `POST /loans/{id}/accept` (Idempotency-Key) pays the offered loan into checking and answers 200
 * with the loan (`active`); `POST /loans/{id}/decline` answers 200 with the loan (`declined`). An
 * offer past its window answers 409 `offer_expired`; one already answered, 409 `already_decided`.
 */
export const loanOfferResponseSchema = loanDetailResponseSchema;

/**
 * The bank's rate rule (docs/decisions/027-loans.md), shared by the back office's suggestion and the
 * application's estimate: by how large the loan is beside the stated annual income, up to a fifth of
 * it 7.99%, up to half 11.99%, up to all of it 17.99%, beyond that 24.99%.
 */
export const loanAprTiersBps = { lowest: 799, low: 1_199, high: 1_799, highest: 2_499 } as const;

export function suggestedAprBps(requestedAmountCents: bigint, annualIncomeCents: bigint): number {
  if (requestedAmountCents * 5n <= annualIncomeCents) return loanAprTiersBps.lowest;
  if (requestedAmountCents * 2n <= annualIncomeCents) return loanAprTiersBps.low;
  if (requestedAmountCents <= annualIncomeCents) return loanAprTiersBps.high;
  return loanAprTiersBps.highest;
}

/** The monthly rate aprBps / 120,000: APR in basis points over 10,000 (a fraction) over 12 (months). */
const monthlyRateDenominator = 120_000n;

/**
 * The level monthly payment of an amortised loan, rounded once half-up to the cent, in exact bigint
 * arithmetic. With r = a / b: P·r / (1 − (1 + r)^−n) = P·a·(b + a)^n / (b·((b + a)^n − b^n)). An APR
 * of 0 divides the amount evenly (the remainder goes to the last instalment, so the level payment is
 * the quotient). The loans module's schedule and the application's estimate both use it.
 */
export function levelPaymentCents(principalCents: bigint, aprBps: number, termMonths: number): bigint {
  if (aprBps === 0) return principalCents / BigInt(termMonths);
  const a = BigInt(aprBps);
  const b = monthlyRateDenominator;
  const n = BigInt(termMonths);
  const growth = (b + a) ** n;
  const numerator = principalCents * a * growth;
  const denominator = b * (growth - b ** n);
  return (2n * numerator + denominator) / (2n * denominator);
}

export interface LoanEstimate {
  /** The bank's whole range, lowest to highest. */
  minAprBps: number;
  maxAprBps: number;
  /** The rate the bank's rule gives this amount and income, and the payment at it. */
  exampleAprBps: number;
  exampleMonthlyPaymentCents: bigint;
}

/** The application's estimate (not an offer: the offer states the exact terms). */
export function estimateLoan(amountCents: bigint, annualIncomeCents: bigint, termMonths: number): LoanEstimate {
  const exampleAprBps = suggestedAprBps(amountCents, annualIncomeCents);
  return {
    minAprBps: loanAprTiersBps.lowest,
    maxAprBps: loanAprTiersBps.highest,
    exampleAprBps,
    exampleMonthlyPaymentCents: levelPaymentCents(amountCents, exampleAprBps, termMonths),
  };
}

/**
 * An APR in basis points as a percentage with two decimals: 1,250 -> "12.50%". Integer arithmetic on
 * the whole basis points, so no float ever shapes the digits. A disclosed APR (computed from the
 * schedule) may carry a fraction of a basis point; it is shown to the nearest one. One wording for
 * the screens, the back office, the documents and the notices.
 */
export function formatAprBps(aprBps: number): string {
  if (!Number.isFinite(aprBps) || aprBps < 0) throw new RangeError(`not an APR in basis points: ${aprBps}`);
  const wholeBps = Math.round(aprBps);
  return `${Math.trunc(wholeBps / 100)}.${String(wholeBps % 100).padStart(2, '0')}%`;
}
