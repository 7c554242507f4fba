import type { InterestTier, Product } from '@strongroom/contracts/products.ts';
import type { Queryable } from '../../db/database.ts';
import { apyBps } from './apy.ts';
import { findProductRow, listProductRows, listTermsRows, type ProductRow, type TermsRow } from './repository.ts';

export { apyBps, apyEarnedBps } from './apy.ts';
export type { ProductRow, TermsRow } from './repository.ts';

/** The terms in force on `day` (YYYY-MM-DD): the latest dated on or before it. */
export function termsInForce(terms: readonly TermsRow[], productId: string, day: string): TermsRow | undefined {
  let found: TermsRow | undefined;
  for (const row of terms) if (row.product_id === productId && row.effective_from <= day) found = row;
  return found;
}

/** The rate a balance earns under these tiers: the highest tier it reaches; nothing on a balance at or below zero. */
export function rateForBalance(tiers: readonly InterestTier[], balanceCents: bigint): number {
  if (balanceCents <= 0n) return 0;
  let rate = 0;
  for (const tier of tiers) if (balanceCents >= BigInt(tier.fromCents)) rate = tier.rateBps;
  return rate;
}

/** One formatter: toLocaleString makes one on every call. */
const groupedWhole = new Intl.NumberFormat('en-US');

function dollars(cents: bigint): string {
  const whole = cents / 100n;
  const part = cents % 100n;
  return `$${groupedWhole.format(whole)}${part === 0n ? '' : `.${part.toString().padStart(2, '0')}`}`;
}

/** How the monthly fee is waived, in the words the public page and the disclosure print; empty without a fee. */
export function waiverTextOf(terms: Pick<TermsRow, 'monthly_fee_cents' | 'waiver_min_daily_balance_cents' | 'waiver_monthly_deposits_cents'>): string {
  if (terms.monthly_fee_cents === 0n) return '';
  const ways = [
    ...(terms.waiver_min_daily_balance_cents === null
      ? []
      : [`keep at least ${dollars(terms.waiver_min_daily_balance_cents)} in the account at the end of every day of the month`]),
    ...(terms.waiver_monthly_deposits_cents === null ? [] : [`deposit at least ${dollars(terms.waiver_monthly_deposits_cents)} in the month`]),
  ];
  if (ways.length === 0) return 'The monthly fee is charged every month.';
  return `No monthly fee when you ${ways.join(', or ')}.`;
}

/** A product and its terms as `GET /products` shows them. */
export function presentProduct(product: ProductRow, terms: readonly TermsRow[], day: string): Product {
  const current = termsInForce(terms, product.id, day);
  if (!current) throw new Error(`product ${product.code} has no terms in force on ${day}`);
  const upcoming = terms.find((row) => row.product_id === product.id && row.effective_from > day) ?? null;
  const baseRate = current.interest_tiers[0]?.rateBps ?? 0;
  return {
    id: product.id,
    code: product.code,
    kind: product.kind,
    name: product.name,
    monthlyFeeCents: Number(current.monthly_fee_cents),
    waiverText: waiverTextOf(current),
    waiverMinDailyBalanceCents: current.waiver_min_daily_balance_cents === null ? null : Number(current.waiver_min_daily_balance_cents),
    waiverMonthlyDepositsCents: current.waiver_monthly_deposits_cents === null ? null : Number(current.waiver_monthly_deposits_cents),
    openingDepositCents: Number(current.opening_deposit_cents),
    interestRateBps: baseRate,
    apyBps: apyBps(baseRate),
    tiers: current.interest_tiers.map((tier) => ({ ...tier, apyBps: apyBps(tier.rateBps) })),
    effectiveFrom: current.effective_from,
    upcoming: upcoming && {
      effectiveFrom: upcoming.effective_from,
      monthlyFeeCents: Number(upcoming.monthly_fee_cents),
      interestRateBps: upcoming.interest_tiers[0]?.rateBps ?? 0,
      apyBps: apyBps(upcoming.interest_tiers[0]?.rateBps ?? 0),
    },
  };
}

/** The catalogue on `day`, checking products first, each kind in its published order. */
export async function listProducts(db: Queryable, day: string): Promise<Product[]> {
  const [products, terms] = await Promise.all([listProductRows(db), listTermsRows(db)]);
  return products.map((product) => presentProduct(product, terms, day));
}

export async function findProduct(db: Queryable, productId: string, day: string): Promise<Product | undefined> {
  const product = await findProductRow(db, productId);
  if (!product) return undefined;
  return presentProduct(product, await listTermsRows(db, [product.id]), day);
}
