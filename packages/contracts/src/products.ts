import { z } from 'zod';

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
  upcoming: z.object({ effectiveFrom: z.iso.date(), monthlyFeeCents: z.number().int(), interestRateBps: z.number().int(), apyBps: z.number().int() }).nullable(),
});
export type Product = z.infer<typeof productSchema>;

export const productListSchema = z.object({ items: z.array(productSchema) });
export type ProductList = z.infer<typeof productListSchema>;

/** How interest is worked out, as every disclosure says it (Regulation DD, 12 CFR 1030.4(b)). */
export const interestMethodText =
  'Interest is worked out every day by the daily balance method: the rate in force that day is applied to the ledger balance at the end of the day. ' +
  'It is added up exactly, without rounding, and paid into the account at the end of each calendar month (compounded monthly); ' +
  'fractions of a cent are carried into the next month, never lost. Interest begins to accrue on the day the account opens.';
