import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { plainString } from './fields.ts';
import { idTypes } from './onboarding.ts';
import { decisionReasonField, decisionRequestSchema } from './staff.ts';

/**
 * The identity queue of the back office (docs/product.md section 6, `identity.decide`). A review shows
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
  /** A USPS code ('IL') since decision 055; free text in reviews sent before it. */
  state: z.string(),
  /** The street: one or two lines, joined by a line feed. */
  address: z.string(),
  /** Decision 055's fields; null in reviews sent before it, which did not ask for them. */
  city: z.string().nullable(),
  zipCode: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  idType: z.enum(idTypes).nullable(),
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

/**
 * What two customers may share that one person signing up twice would carry over: a verified phone
 * number, an ID number, a browser (issue 30 item 8). Never the phone or the number itself: only
 * that it is shared, and with whom.
 */
export const sharedSignals = ['id_number', 'phone', 'device'] as const;
export const sharedSignalSchema = z.enum(sharedSignals);
export type SharedSignal = z.infer<typeof sharedSignalSchema>;

/** Another customer sharing something with the review's customer; `referrer` when their code brought this one. */
export const duplicateCustomerSchema = z.object({
  customerId: z.string(),
  name: z.string(),
  shares: z.array(sharedSignalSchema),
  referrer: z.boolean(),
});
export type DuplicateCustomer = z.infer<typeof duplicateCustomerSchema>;

/**
 * The referral bonus this customer's sign-up earns their referrer, as staff see it. `held` when the
 * customer shared something with another customer at approval: it is not paid until staff pay it
 * (then `pending` until the referrer has a checking account, then `paid`) or refuse it.
 */
export const referralBonusStatusSchema = z.enum(['pending', 'held', 'paid', 'refused']);
export const staffReferralBonusSchema = z.object({
  id: z.string(),
  status: referralBonusStatusSchema,
  bonusCents: centsSchema,
  referrerCustomerId: z.string(),
  referrerName: z.string(),
  heldBecause: z.array(sharedSignalSchema),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type StaffReferralBonus = z.infer<typeof staffReferralBonusSchema>;

/** One review with what staff need beside it: who else shares this identity, and the bonus it would pay. */
export const identityReviewResponseSchema = z.object({
  review: identityReviewSchema,
  duplicates: z.array(duplicateCustomerSchema),
  referralBonus: staffReferralBonusSchema.nullable(),
});
export type IdentityReviewResponse = z.infer<typeof identityReviewResponseSchema>;

/** `POST /staff/referral-bonuses/{id}/decision`: a held bonus paid or refused, with the reason every staff action has. */
export const referralBonusDecisionRequestSchema = decisionRequestSchema(['pay', 'refuse']);
export type ReferralBonusDecisionRequest = z.input<typeof referralBonusDecisionRequestSchema>;
export const referralBonusResponseSchema = z.object({ referralBonus: staffReferralBonusSchema });

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
