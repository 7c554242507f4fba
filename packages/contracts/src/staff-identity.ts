import { z } from 'zod';
import { plainString } from './fields.ts';
import { decisionReasonField, decisionRequestSchema } from './staff.ts';

/**
 * The identity queue of the back office (PRODUCT.md section 6, `identity.decide`). A review shows
 * the ID number masked (its last four characters); the whole number only comes from the audited
 * reveal, never from a list.
 */
export const identityReviewStatuses = ['submitted', 'approved', 'rejected'] as const;
export const identityReviewStatusSchema = z.enum(identityReviewStatuses);
export type IdentityReviewStatus = z.infer<typeof identityReviewStatusSchema>;

export const identityReviewListQuerySchema = z.object({
  status: identityReviewStatusSchema.default('submitted'),
  cursor: plainString().max(200).optional(),
});

export const identityReviewSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  name: z.string(),
  email: z.string(),
  country: z.string(),
  state: z.string(),
  address: z.string(),
  /** The last characters of the ID number only, e.g. "6789". */
  idNumberLast4: z.string(),
  status: identityReviewStatusSchema,
  reason: z.string().nullable(),
  /** When the customer sent it: the queue's "waiting since". */
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  hasDocument: z.boolean(),
  hasProfilePhoto: z.boolean(),
});
export type IdentityReview = z.infer<typeof identityReviewSchema>;

export const identityReviewListSchema = z.object({
  items: z.array(identityReviewSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type IdentityReviewList = z.infer<typeof identityReviewListSchema>;

export const identityReviewResponseSchema = z.object({ review: identityReviewSchema });

export const identityDecisionRequestSchema = decisionRequestSchema(['approve', 'reject']);
export type IdentityDecisionRequest = z.input<typeof identityDecisionRequestSchema>;

export const revealIdNumberRequestSchema = z.object({ reason: decisionReasonField });
export const revealIdNumberResponseSchema = z.object({ idNumber: z.string() });

/** The customer's own view of their latest review: why it was rejected, so they can send again. */
export const ownIdentityStatusSchema = z.object({
  status: z.enum(['not_submitted', ...identityReviewStatuses]),
  reason: z.string().nullable(),
});
export type OwnIdentityStatus = z.infer<typeof ownIdentityStatusSchema>;
