import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { paymentKindSchema, paymentStatusSchema } from './payments.ts';
import { decisionReasonField, decisionRequestSchema } from './staff.ts';

/**
 * The back office's payment queues (docs/product.md section 6, "Staff"): transfers held for review
 * (`transfers.review`, four eyes at FOUR_EYES_CENTS) and payments waiting at the rails
 * (`payments.settle`). Cursors are opaque: the id of the last item of the page before.
 */
export const heldTransferStatusSchema = z.enum(['in_review', 'rejected', 'released']);
export type HeldTransferStatus = z.infer<typeof heldTransferStatusSchema>;

const cursorField = z.uuid({ error: 'the cursor is not one this list gave' }).optional();

export const heldTransfersQuerySchema = z.object({
  status: heldTransferStatusSchema.default('in_review'),
  cursor: cursorField,
});

export const staffRecentPaymentSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  kind: paymentKindSchema,
  payee: z.string(),
  amountCents: centsSchema,
  status: paymentStatusSchema,
});
export type StaffRecentPayment = z.infer<typeof staffRecentPaymentSchema>;

export const reviewApprovalSchema = z.object({
  staffId: z.string(),
  email: z.string(),
  reason: z.string(),
  approvedAt: z.string(),
});

export const heldTransferSchema = z.object({
  id: z.string(),
  kind: paymentKindSchema,
  status: paymentStatusSchema,
  amountCents: centsSchema,
  message: z.string(),
  /** The D1 rule that held it. */
  rule: z.string().nullable(),
  /** Waiting since: when the payment was made and held. */
  heldAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  payee: z.object({ name: z.string(), accountLast4: z.string().nullable(), bankName: z.string().nullable() }),
  recentPayments: z.array(staffRecentPaymentSchema),
  fourEyes: z.object({
    /** True when a release needs two different staff members (the amount is FOUR_EYES_CENTS or more). */
    required: z.boolean(),
    thresholdCents: centsSchema,
    approvals: z.array(reviewApprovalSchema),
  }),
});
export type HeldTransfer = z.infer<typeof heldTransferSchema>;

export const heldTransferListSchema = z.object({
  items: z.array(heldTransferSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type HeldTransferList = z.infer<typeof heldTransferListSchema>;

export const heldTransferDecisionWords = ['release', 'reject'] as const;
export const heldTransferDecisionSchema = decisionRequestSchema(heldTransferDecisionWords);
export type HeldTransferDecision = z.input<typeof heldTransferDecisionSchema>;

/** 200: decided. 202: a first approval of a four-eyes release, waiting for someone else. */
export const heldTransferDecisionResponseSchema = z.object({
  status: z.enum(['released', 'rejected', 'awaiting_second_approval']),
  transfer: heldTransferSchema,
});
export type HeldTransferDecisionResponse = z.infer<typeof heldTransferDecisionResponseSchema>;

/** Outgoing payments waiting at a rail (and ACH deposits, which are debits pulled from other banks). */
export const staffPaymentRailSchema = z.enum(['ach', 'wire']);
export type StaffPaymentRail = z.infer<typeof staffPaymentRailSchema>;

export const isoDateField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, 'not a calendar date');

export const staffPaymentsQuerySchema = z.object({
  status: z.enum(['pending']).default('pending'),
  rail: staffPaymentRailSchema.optional(),
  /** Only those expected to settle on this day (UTC). */
  date: isoDateField.optional(),
  cursor: cursorField,
});

export const staffPaymentSchema = z.object({
  id: z.string(),
  kind: paymentKindSchema,
  rail: staffPaymentRailSchema,
  /** A credit leaves the bank; a debit (a deposit) is pulled in from another bank. */
  entry: z.enum(['credit', 'debit']),
  status: paymentStatusSchema,
  amountCents: centsSchema,
  counterparty: z.string(),
  customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  createdAt: z.string(),
  expectedSettlementAt: z.string().nullable(),
  /** Set once the entry went out in an ACH file. */
  traceNumber: z.string().nullable(),
});
export type StaffPayment = z.infer<typeof staffPaymentSchema>;

export const staffPaymentListSchema = z.object({
  items: z.array(staffPaymentSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type StaffPaymentList = z.infer<typeof staffPaymentListSchema>;

/**
 * `GET /staff/payments/ach-file?date=&reason=`: the reason goes to the download's audit entry, as
 * the CLI's `ach-file --reason` does. Optional on the API (the route answered without one before);
 * the console always asks for it.
 */
export const achFileQuerySchema = z.object({ date: isoDateField, reason: decisionReasonField.optional() });
