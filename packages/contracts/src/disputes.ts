import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { textField } from './fields.ts';
import { paymentKindSchema, type PaymentKind, type PaymentStatus } from './payments.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Disputes: a customer's error notice under Regulation E (12 CFR 1005.11), resolved on its clock
 * (issue 34; docs/disputes.md; PRODUCT.md section 7 "Disputes"). Deadlines are the bank's business
 * dates (YYYY-MM-DD).
 */

export const disputeReasons = ['unauthorized', 'wrong_amount', 'duplicate', 'not_received', 'cancelled', 'other'] as const;
export const disputeReasonSchema = z.enum(disputeReasons, { error: 'choose what went wrong' });
export type DisputeReason = z.infer<typeof disputeReasonSchema>;

/** What the customer reads for each reason. */
export const disputeReasonLabels: Readonly<Record<DisputeReason, string>> = {
  unauthorized: 'I did not make or allow this',
  wrong_amount: 'The amount is wrong',
  duplicate: 'I was charged twice',
  not_received: 'I paid but did not get what I paid for',
  cancelled: 'I cancelled but was still charged',
  other: 'Something else',
};

export const disputeStatuses = ['submitted', 'investigating', 'provisionally_credited', 'resolved', 'denied', 'withdrawn'] as const;
export const disputeStatusSchema = z.enum(disputeStatuses);
export type DisputeStatus = z.infer<typeof disputeStatusSchema>;

export const disputeDescriptionField = textField(2000).pipe(z.string().min(10, 'tell us what happened in at least 10 characters'));

/** `POST /disputes`. `replaceCard` (an unauthorized card charge only): freeze the card and order a replacement in the same step. */
export const createDisputeRequestSchema = z.object({
  transferId: z.uuid({ error: 'choose the transaction' }),
  reason: disputeReasonSchema,
  description: disputeDescriptionField,
  replaceCard: z.boolean().default(false),
});
export type CreateDisputeRequest = z.input<typeof createDisputeRequestSchema>;

/** Evidence: an image (PNG, JPEG) or a PDF, at most this size, at most this many per dispute. */
export const disputeEvidenceTypes = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const maxDisputeEvidenceBytes = 5 * 1024 * 1024;
export const maxDisputeEvidenceFiles = 5;

export const disputeSchema = z.object({
  id: z.string(),
  status: disputeStatusSchema,
  transferId: z.string(),
  reason: disputeReasonSchema,
  description: z.string(),
  amountCents: centsSchema,
  /** The disputed transaction as the customer's history shows it. */
  transaction: z.object({ kind: paymentKindSchema, description: z.string(), amountCents: centsSchema, date: z.iso.date() }),
  receivedOn: z.iso.date(),
  /** By when the bank gives provisional credit if it has not finished (10 business days; 20 for an account open under 30 days). */
  provisionalCreditBy: z.iso.date(),
  /** By when the bank finishes (45 days; 90 for a new account, a point-of-sale or a foreign transaction). */
  resolveBy: z.iso.date(),
  /** The provisional credit given so far (0 before any). */
  provisionalCreditCents: centsSchema,
  /** After a denial: the business date the provisional credit is taken back (5 business days' notice). */
  reversalOn: z.iso.date().nullable(),
  cardReplaced: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const disputeEventKinds = [
  'submitted',
  'evidence_added',
  'investigating',
  'information_requested',
  'information_given',
  'provisional_credit',
  'resolved',
  'denied',
  'reversal_scheduled',
  'reversed',
  'chargeback',
  'withdrawn',
  'card_replaced',
] as const;
export const disputeEventSchema = z.object({ kind: z.enum(disputeEventKinds), text: z.string(), at: z.iso.datetime() });
export type DisputeEvent = z.infer<typeof disputeEventSchema>;

export const disputeLetterKinds = ['acknowledgement', 'provisional_credit', 'result', 'information_request', 'reversal_notice'] as const;
export const disputeLetterSchema = z.object({ id: z.string(), kind: z.enum(disputeLetterKinds), createdAt: z.iso.datetime() });
export type DisputeLetter = z.infer<typeof disputeLetterSchema>;

export const disputeEvidenceSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.enum(disputeEvidenceTypes),
  byteSize: z.number().int(),
  createdAt: z.iso.datetime(),
});

/** `POST /disputes` -> 201; `POST /disputes/{id}/withdraw` -> 200. */
export const disputeResponseSchema = z.object({ dispute: disputeSchema });
/** `GET /disputes` -> the customer's disputes, newest first. */
export const disputeListSchema = z.object({ items: z.array(disputeSchema) });
/** `GET /disputes/{id}`. */
export const disputeDetailSchema = z.object({
  dispute: disputeSchema,
  events: z.array(disputeEventSchema),
  letters: z.array(disputeLetterSchema),
  evidence: z.array(disputeEvidenceSchema),
});
export type DisputeDetail = z.infer<typeof disputeDetailSchema>;

/** `POST /disputes/{id}/information`: the customer's answer when the bank asked for more. */
export const disputeInformationRequestSchema = z.object({ text: disputeDescriptionField });

/** Resolving a dispute for the customer at or above this amount needs a second staff member (four eyes). */
export const disputeFourEyesCents = 50_000;

/** Staff: a case in the queue. */
export const staffDisputeSchema = disputeSchema.extend({
  customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  /** The nearest deadline still ahead (or passed): provisional credit by, then resolve by. */
  nextDeadline: z.iso.date(),
  overdue: z.boolean(),
  /** A decision proposed and waiting for a second staff member. */
  pendingDecision: z.object({ decision: z.enum(['customer', 'denied']), by: z.string(), reason: z.string(), at: z.iso.datetime() }).nullable(),
});
export type StaffDispute = z.infer<typeof staffDisputeSchema>;
export const staffDisputeListSchema = z.object({ items: z.array(staffDisputeSchema) });
export const staffDisputeListQuerySchema = z.object({ status: disputeStatusSchema.optional() });

/** The events staff read: the customer's, and a decision proposed and waiting for a second staff member (never shown to the customer). */
export const staffDisputeEventKinds = [...disputeEventKinds, 'decision_proposed'] as const;

/** `GET /staff/disputes/{id}`: the case, its events (with staff reasons), evidence, and the customer's other payments with that merchant or payee. */
export const staffDisputeDetailSchema = z.object({
  dispute: staffDisputeSchema,
  events: z.array(
    disputeEventSchema.extend({
      kind: z.enum(staffDisputeEventKinds),
      staffReason: z.string().nullable(),
      staffName: z.string().nullable(),
      visible: z.boolean(),
    }),
  ),
  letters: z.array(disputeLetterSchema),
  evidence: z.array(disputeEvidenceSchema),
  sameCounterparty: z.array(z.object({ id: z.string(), kind: paymentKindSchema, amountCents: centsSchema, status: z.string(), createdAt: z.iso.datetime() })),
});
export type StaffDisputeDetail = z.infer<typeof staffDisputeDetailSchema>;

/** `POST /staff/disputes/{id}/provisional-credit` and `/investigate`. */
export const disputeStaffActionSchema = z.object({ reason: decisionReasonField });
/** `POST /staff/disputes/{id}/request-information`: what the customer is asked (they read it), and the reason (staff only). */
export const disputeInformationAskSchema = z.object({
  question: textField(1000).pipe(z.string().min(10, 'ask in at least 10 characters')),
  reason: decisionReasonField,
});
/**
 * `POST /staff/disputes/{id}/decision`: `customer` (the credit becomes final; a card charge is
 * charged back to the network) or `denied`, with `explanation` (the customer's letter says it) and
 * `reason` (the audit log). 200 when done; 202 `{ awaitingApproval: true }` when a resolution at or
 * above disputeFourEyesCents waits for a second staff member, who confirms with
 * `POST /staff/disputes/{id}/decision/approve` `{ reason }` (403 four_eyes_required for the same person).
 */
export const disputeDecisionRequestSchema = z.object({
  decision: z.enum(['customer', 'denied']),
  explanation: textField(2000).pipe(z.string().min(10, 'explain the decision to the customer in at least 10 characters')),
  reason: decisionReasonField,
});
export const staffDisputeResponseSchema = z.object({ dispute: staffDisputeSchema, awaitingApproval: z.boolean().optional() });

/** A history line as far as "Report a problem" needs it (contracts' transactions.ts `Transaction`). */
export interface ReportableLine {
  kind: PaymentKind;
  status: PaymentStatus;
  /** Signed: money out is negative. */
  amountCents: number;
  party?: string | null | undefined;
}

/** A purchase with a debit card: a card line out whose heading names no payee (the description names the merchant). */
export function isCardPurchaseLine(line: ReportableLine): boolean {
  return line.kind === 'card' && line.amountCents < 0 && !line.party;
}

const reportableKindsOut: ReadonlySet<PaymentKind> = new Set(['card', 'internal', 'external', 'bill', 'withdrawal']);

/**
 * The lines the web offers "Report a problem" on: money out by card (a purchase, also while its hold
 * is pending), to someone else, a bill or a withdrawal; and a deposit (it came in short). Not one
 * held for review, refused or returned. Only a hint for the screens: `POST /disputes` decides (422 not_disputable).
 */
export function mayReportLine(line: ReportableLine): boolean {
  if (line.status !== 'completed' && line.status !== 'pending') return false;
  if (line.kind === 'deposit') return line.amountCents > 0;
  return line.amountCents < 0 && reportableKindsOut.has(line.kind);
}
