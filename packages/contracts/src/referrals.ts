import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { businessConstants } from './constants.ts';

/**
 * Invite a friend (seed section 2 "Invite", D11, D12): the customer's own code and link, and the
 * referrals it brought. When a referred customer's identity is approved, the referrer receives
 * `referralBonusCents` from the bank's marketing expense account, once per referred customer.
 */
export const referralBonusCents: bigint = businessConstants.referralBonusCents;

/** Eight characters of Crockford's base32 (no I, L, O or U): short to read aloud, never ambiguous. */
export const referralCodeAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const referralCodeLength = 8;
export const referralCodePattern = /^[0-9A-HJKMNP-TV-Z]{8}$/;

export const referralMessages = {
  unknownCode: 'this referral code does not exist',
  linkCopied: 'Referral link copied',
} as const;

/**
 * The optional `referralCode` of `POST /auth/signup`: typed or carried from `?ref=`, so spaces and
 * case are forgiven. Anything that is not a code of this bank is refused with the same message as
 * a well-formed code nobody owns.
 */
export const referralCodeField = z
  .string({ error: referralMessages.unknownCode })
  .trim()
  .toUpperCase()
  .max(32, referralMessages.unknownCode)
  .regex(referralCodePattern, referralMessages.unknownCode);

/** `GET /me/referral`: the link is `${PUBLIC_URL}/signup?ref=CODE`. */
export const referralResponseSchema = z.object({ code: z.string(), link: z.string() });
export type ReferralResponse = z.infer<typeof referralResponseSchema>;

/** `refused`: staff found the friend was the referrer (or another customer) signing up again. A bonus held for that check reads `pending`. */
export const referralStatusSchema = z.enum(['pending', 'paid', 'refused']);
export type ReferralStatus = z.infer<typeof referralStatusSchema>;

/**
 * One referral as the referrer sees it: whether it paid, how much, and when. No name, email or
 * anything else of the referred customer is ever listed (decision 032).
 */
export const referralItemSchema = z.object({
  id: z.string(),
  status: referralStatusSchema,
  bonusCents: centsSchema,
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type ReferralItem = z.infer<typeof referralItemSchema>;

export const referralListLimit = 100;

/** `GET /me/referrals`: newest first, at most `referralListLimit`, with the totals of all of them. */
export const referralListSchema = z.object({
  items: z.array(referralItemSchema),
  pendingCount: z.number().int().nonnegative(),
  paidCount: z.number().int().nonnegative(),
  paidCents: centsSchema,
});
export type ReferralList = z.infer<typeof referralListSchema>;
