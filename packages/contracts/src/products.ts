import { z } from 'zod';
import { textField } from './fields.ts';

/**
 * The deposit accounts the public pages offer (/current, /savings), by the slug an "Open an account"
 * button carries into sign-up (`/signup?product=gold-checking`, docs/decisions/054). A customer who
 * chose one has their checking or savings account opened as it; the other of the two opens as the
 * bank's first product of its kind. The names are the ones the public pages and the accounts show.
 */
export const depositProducts = [
  { slug: 'easy-checking', type: 'checking', name: 'Easy Checking' },
  { slug: 'gold-checking', type: 'checking', name: 'Gold Checking' },
  { slug: 'platinum-checking', type: 'checking', name: 'Platinum Checking' },
  { slug: 'standard-savings', type: 'savings', name: 'Standard Savings' },
  { slug: 'platinum-select-money-market-savings', type: 'savings', name: 'Platinum Select Money Market Savings' },
  { slug: 'package-money-market-savings', type: 'savings', name: 'Package Money Market Savings' },
] as const satisfies readonly { slug: string; type: 'checking' | 'savings'; name: string }[];

export type DepositProduct = (typeof depositProducts)[number];
export type DepositProductSlug = DepositProduct['slug'];

const slugs = depositProducts.map((product) => product.slug) as [DepositProductSlug, ...DepositProductSlug[]];

export const depositProductSlugSchema = z.enum(slugs, { error: 'choose one of the accounts on our Current accounts or Savings pages' });

export function depositProductOf(slug: string | null | undefined): DepositProduct | undefined {
  return depositProducts.find((product) => product.slug === slug);
}

/** The product each kind of account opens as when the customer chose none of that kind. */
export function defaultDepositProduct(type: 'checking' | 'savings'): DepositProduct {
  const product = depositProducts.find((candidate) => candidate.type === type);
  if (!product) throw new Error(`no deposit product of type ${type}`);
  return product;
}

/** One balance tier of a product's interest: the whole balance earns the rate of the highest tier it reaches. */
export const interestTierSchema = z.object({
  fromCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  rateBps: z.number().int().min(0, 'a rate cannot be negative').max(10_000, 'a rate cannot be over 100%'),
});
export type InterestTier = z.infer<typeof interestTierSchema>;

/**
 * `GET /products` (docs/product.md section 7): the catalogue as it stands on the bank's business
 * date, each product with the terms in force. `interestRateBps` and `apyBps` are those of the
 * lowest tier; `tiers` gives each tier's rate and APY. `waiverText` says how the monthly fee is
 * waived, empty when there is no fee.
 */
export const productSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(['checking', 'savings']),
  name: z.string(),
  monthlyFeeCents: z.number().int(),
  waiverText: z.string(),
  waiverMinDailyBalanceCents: z.number().int().nullable(),
  waiverMonthlyDepositsCents: z.number().int().nullable(),
  openingDepositCents: z.number().int(),
  interestRateBps: z.number().int(),
  apyBps: z.number().int(),
  tiers: z.array(interestTierSchema.extend({ apyBps: z.number().int() })),
  /** The date the terms shown took effect, and a change already announced (dated ahead), if any. */
  effectiveFrom: z.iso.date(),
  upcoming: z
    .object({ effectiveFrom: z.iso.date(), monthlyFeeCents: z.number().int(), interestRateBps: z.number().int(), apyBps: z.number().int() })
    .nullable(),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.object({
  items: z.array(productSchema),
  /** The bank's date the terms shown are those of: "rates and fees as of". */
  asOf: z.iso.date(),
});
export type ProductList = z.infer<typeof productListSchema>;

/** How interest is worked out, as every disclosure says it (Regulation DD, 12 CFR 1030.4(b)). */
export const interestMethodText =
  'Interest is worked out every day by the daily balance method: the rate in force that day is applied to the ledger balance at the end of the day. ' +
  'It is added up exactly, without rounding, and paid into the account at the end of each calendar month (compounded monthly); ' +
  'fractions of a cent are carried into the next month, never lost. Interest begins to accrue on the day the account opens.';

/**
 * A staff member's reason, 3 to 500 characters: the same rule as staff.ts `decisionReasonField`,
 * written again here because staff.ts imports auth.ts, which imports this file.
 */
const staffReasonField = textField(500).pipe(z.string().min(3, 'the reason needs at least 3 characters'));

/** The most balance tiers one product's terms may have. */
export const maxInterestTiers = 10;

/** An amount of the product's terms, in cents: whole, not negative. */
const termsAmountCents = (what: string) =>
  z
    .number({ error: `enter the ${what} in cents` })
    .int(`the ${what} is a whole number of cents`)
    .min(0, `the ${what} cannot be negative`)
    .max(Number.MAX_SAFE_INTEGER, `the ${what} is too large`);

/**
 * `POST /staff/products/{id}/terms` (`products.edit`): a product's new terms from `effectiveFrom`
 * on, which must be after the bank's date (422 `effective_date_in_past`): a change never rewrites
 * the past. New terms for a date already scheduled replace them. Tiers ascend from 0.
 */
export const productTermsChangeSchema = z.object({
  effectiveFrom: z.iso.date({ error: 'enter the date the new terms take effect (YYYY-MM-DD)' }),
  monthlyFeeCents: termsAmountCents('monthly fee'),
  waiverMinDailyBalanceCents: termsAmountCents('minimum daily balance').nullable(),
  waiverMonthlyDepositsCents: termsAmountCents('monthly deposits').nullable(),
  openingDepositCents: termsAmountCents('opening deposit'),
  tiers: z
    .array(interestTierSchema, { error: 'give at least one interest tier' })
    .min(1, 'give at least one interest tier')
    .max(maxInterestTiers, `give at most ${maxInterestTiers} interest tiers`)
    .superRefine((tiers, context) => {
      if (tiers[0] && tiers[0].fromCents !== 0)
        context.addIssue({ code: 'custom', path: [0, 'fromCents'], message: 'the first tier starts at a balance of $0' });
      tiers.forEach((tier, index) => {
        const before = tiers[index - 1];
        if (before && tier.fromCents <= before.fromCents)
          context.addIssue({ code: 'custom', path: [index, 'fromCents'], message: 'each tier starts at a higher balance than the one before' });
      });
    }),
  reason: staffReasonField,
});
export type ProductTermsChange = z.infer<typeof productTermsChangeSchema>;

/** One row of a product's terms history as staff see it: past, in force on the bank's date, or scheduled. */
export const productTermsSchema = z.object({
  id: z.string(),
  effectiveFrom: z.iso.date(),
  state: z.enum(['past', 'current', 'scheduled']),
  monthlyFeeCents: z.number().int(),
  waiverMinDailyBalanceCents: z.number().int().nullable(),
  waiverMonthlyDepositsCents: z.number().int().nullable(),
  openingDepositCents: z.number().int(),
  tiers: z.array(interestTierSchema.extend({ apyBps: z.number().int() })),
  waiverText: z.string(),
  reason: z.string(),
  staffId: z.string().nullable(),
  createdAt: z.string(),
});
export type ProductTerms = z.infer<typeof productTermsSchema>;

export const staffProductSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(['checking', 'savings']),
  name: z.string(),
  /** Oldest first. */
  terms: z.array(productTermsSchema),
});
export type StaffProduct = z.infer<typeof staffProductSchema>;

/** `GET /staff/products`: every product with its whole terms history, and the bank's date they are read against. */
export const staffProductListSchema = z.object({ bankDate: z.iso.date(), items: z.array(staffProductSchema) });
export type StaffProductList = z.infer<typeof staffProductListSchema>;

export const staffProductResponseSchema = z.object({ product: staffProductSchema });

/**
 * Fee refunds (`fees.refund`): a fee is given back whole, once. A fee of this amount or more needs
 * two staff members: the first asks, a different one approves (or rejects).
 */
export const feeRefundFourEyesCents = 2_000;

export const feeRefundStatusSchema = z.enum(['awaiting_approval', 'refunded', 'rejected']);
export type FeeRefundStatus = z.infer<typeof feeRefundStatusSchema>;

export const feeRefundSchema = z.object({
  id: z.string(),
  feePaymentId: z.string(),
  customerId: z.string(),
  amountCents: z.number().int(),
  status: feeRefundStatusSchema,
  requestedBy: z.string(),
  requestReason: z.string(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** The refund's payment, once the money moved, and the account it went to. */
  refundPaymentId: z.string().nullable(),
  toAccountId: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type FeeRefund = z.infer<typeof feeRefundSchema>;

/** A fee a customer paid, with its refund (the latest request, if any). */
export const customerFeeSchema = z.object({
  paymentId: z.string(),
  accountId: z.string(),
  accountName: z.string(),
  amountCents: z.number().int(),
  message: z.string(),
  chargedAt: z.string(),
  refund: feeRefundSchema.nullable(),
});
export type CustomerFee = z.infer<typeof customerFeeSchema>;

/** `GET /staff/customers/{id}/fees`. */
export const customerFeeListSchema = z.object({ fourEyesCents: z.number().int(), items: z.array(customerFeeSchema) });
export type CustomerFeeList = z.infer<typeof customerFeeListSchema>;

/** `POST /staff/fees/{paymentId}/refund`, `POST /staff/fee-refunds/{id}/approve|reject`: `{ reason }`. */
export const feeRefundReasonSchema = z.object({
  reason: staffReasonField,
});
export type FeeRefundReason = z.infer<typeof feeRefundReasonSchema>;

/** 201 when the money moved, 202 when the refund waits for a second staff member. */
export const feeRefundResponseSchema = z.object({ refund: feeRefundSchema });
export type FeeRefundResponse = z.infer<typeof feeRefundResponseSchema>;
