import { z } from 'zod';

/** Money crosses the wire as integer cents in JSON numbers: exact up to 2^53 cents. */
export const centsSchema = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

export const accountTypeSchema = z.enum(['checking', 'savings']);

/** `closed` once the customer or staff closed it (PRODUCT.md section 7); every other account is `open`. */
export const accountStatusSchema = z.enum(['open', 'closed']);

/**
 * An account's balances and state, as staff see it on a customer's page. Balances are derived from
 * the ledger (D8).
 */
export const accountBalanceSchema = z.object({
  id: z.string(),
  type: accountTypeSchema,
  number: z.string(),
  name: z.string(),
  /** Below zero only when a deposit another bank returned after it cleared had already been spent. */
  balanceCents: centsSchema,
  availableCents: centsSchema,
  status: accountStatusSchema,
  /** Open and its owner's identity approved: the seed shows an account "Inactive" until then. */
  active: z.boolean(),
  /** Deposits from other banks on their way in: not in the balance, not available until they clear. */
  pendingDepositsCents: centsSchema,
  /** When the last of those is expected to be available; null when none is pending or no date is known. */
  pendingDepositsAvailableAt: z.iso.datetime().nullable(),
});
export type AccountBalance = z.infer<typeof accountBalanceSchema>;

/**
 * `GET /api/v1/accounts` (PRODUCT.md sections 5 and 7): the balances, the account's product, the
 * rate its balance earns today and that rate's APY, and the interest it earned this month and this
 * year in the bank's calendar (docs/deposit-products.md).
 */
export const accountSchema = accountBalanceSchema.extend({
  productId: z.string(),
  productName: z.string(),
  /** The rate the balance earns today under the product's terms in force; the product's base rate for a balance of zero. */
  interestRateBps: z.number().int().min(0).max(10_000),
  /** The APY of that rate (Regulation DD, Appendix A), in basis points. */
  apyBps: z.number().int().min(0),
  /** This month's accrued interest, whole cents (fractions carry on until the month's posting). */
  interestThisMonthCents: centsSchema,
  /** Interest paid into the account this year, plus what has accrued this year and is not paid yet. */
  interestThisYearCents: centsSchema,
});
export type Account = z.infer<typeof accountSchema>;

export const accountListSchema = z.array(accountSchema);
