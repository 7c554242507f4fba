import { z } from 'zod';
import { accountTypeSchema } from './accounts.ts';
import { accountNumberField, personNameField, routeNumberField } from './payments.ts';

/**
 * Accounts a customer holds at other banks, from which a deposit pulls money (docs/product.md section 6,
 * "Deposits from a verified source"). A new link is proved by two micro-deposits of 1-99 cents
 * that the bank sends to it; the customer types both amounts back.
 */
export const microDepositCount = 2;
export const microDepositMinCents = 1;
export const microDepositMaxCents = 99;
/** Wrong answers before a link is `failed` and must be removed and linked again. */
export const fundingSourceVerifyAttempts = 3;
/** Live links (waiting for verification or verified) one customer may have at once. */
export const fundingSourceMaxLive = 5;
/** New links one customer may start in 24 hours: each costs the bank two micro-deposits and a code. */
export const fundingSourceLinksPerDay = 3;

export const fundingSourceStatusSchema = z.enum(['pending_verification', 'verified', 'failed', 'removed']);
export type FundingSourceStatus = z.infer<typeof fundingSourceStatusSchema>;

export const fundingSourceMessages = {
  amountsInvalid: 'enter both amounts in cents, from 1 to 99',
  noFundingSource: 'Link an account at another bank and verify it before you deposit from it.',
  alreadyLinked: 'This account is already linked.',
  tooManyLive: `You can link up to ${fundingSourceMaxLive} accounts at other banks. Remove one first.`,
  tooManyLinks: 'You have linked several accounts today. Please try again tomorrow.',
  ownBank: 'This routing number is this bank: your accounts here need no link',
  notPending: 'This account is not waiting for verification.',
} as const;

/** `POST /funding-sources` (step-up first, D10). */
export const createFundingSourceRequestSchema = z.object({
  accountName: personNameField,
  accountNumber: accountNumberField,
  routeNumber: routeNumberField,
  accountType: accountTypeSchema,
});
export type CreateFundingSourceRequest = z.input<typeof createFundingSourceRequestSchema>;

const microDepositCentsSchema = z
  .number({ error: fundingSourceMessages.amountsInvalid })
  .int(fundingSourceMessages.amountsInvalid)
  .min(microDepositMinCents, fundingSourceMessages.amountsInvalid)
  .max(microDepositMaxCents, fundingSourceMessages.amountsInvalid);

/** `POST /funding-sources/{id}/verify`: both amounts, in either order. */
export const verifyFundingSourceRequestSchema = z.object({
  amountsCents: z
    .array(microDepositCentsSchema, { error: fundingSourceMessages.amountsInvalid })
    .length(microDepositCount, fundingSourceMessages.amountsInvalid),
});
export type VerifyFundingSourceRequest = z.input<typeof verifyFundingSourceRequestSchema>;

export const fundingSourceSchema = z.object({
  id: z.string(),
  status: fundingSourceStatusSchema,
  accountName: z.string(),
  last4: z.string(),
  routeNumber: z.string(),
  accountType: accountTypeSchema,
  /** The bank's name when the route number is one this bank knows; null otherwise. */
  bankName: z.string().nullable(),
  /** Verification tries left while it waits for the amounts; 0 otherwise. */
  attemptsLeft: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  verifiedAt: z.iso.datetime().nullable(),
});
export type FundingSource = z.infer<typeof fundingSourceSchema>;

export const fundingSourceResponseSchema = z.object({ fundingSource: fundingSourceSchema });
export type FundingSourceResponse = z.infer<typeof fundingSourceResponseSchema>;
/** `GET /funding-sources` -> `{ items }`: the live links and failed ones, newest first; removed ones are gone. */
export const fundingSourceListSchema = z.object({ items: z.array(fundingSourceSchema) });
