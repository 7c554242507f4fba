import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { paymentAmountCentsSchema } from './payments.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Loans (PRODUCT.md section 6 "Loans"; seed-spec sections 2 and 5). Money is integer cents; the APR
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
} as const;

export const maritalStatuses = ['single', 'married', 'divorced', 'widowed', 'separated'] as const;
export const maritalStatusLabels: Readonly<Record<(typeof maritalStatuses)[number], string>> = {
  single: 'Single',
  married: 'Married',
  divorced: 'Divorced',
  widowed: 'Widowed',
  separated: 'Separated',
};

export const loanStatuses = ['submitted', 'rejected', 'active', 'paid_off'] as const;
export const loanStatusSchema = z.enum(loanStatuses);
export type LoanStatus = z.infer<typeof loanStatusSchema>;

/** The seed's words (D11 spelling). */
export const loanMessages = {
  sent: 'Loan application sent',
  applicationOpen: 'You already have a loan application waiting for a decision.',
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

/** `POST /loans/{id}/repayments` (Idempotency-Key): pays principal first; more than is owed is refused. */
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
