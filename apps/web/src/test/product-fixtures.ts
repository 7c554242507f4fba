import type { Product, ProductList } from '@strongroom/contracts/products.ts';

/** The seed's six products as `GET /products` answers them (migration 0041), for screens' tests. */
function product(code: string, kind: Product['kind'], name: string, terms: Partial<Product> & { tiers: Product['tiers'] }, index: number): Product {
  const [first] = terms.tiers;
  return {
    id: `00000000-0000-4000-8000-00000000d00${index}`,
    code,
    kind,
    name,
    monthlyFeeCents: 0,
    waiverText: '',
    waiverMinDailyBalanceCents: null,
    waiverMonthlyDepositsCents: null,
    openingDepositCents: 0,
    interestRateBps: first?.rateBps ?? 0,
    apyBps: first?.apyBps ?? 0,
    effectiveFrom: '2000-01-01',
    upcoming: null,
    ...terms,
  };
}

export const seedProducts: Product[] = [
  product(
    'easy-checking',
    'checking',
    'Easy Checking',
    {
      monthlyFeeCents: 695,
      waiverText: 'No monthly fee when you keep at least $1,500 in the account at the end of every day of the month, or deposit at least $500 in the month.',
      waiverMinDailyBalanceCents: 150_000,
      waiverMonthlyDepositsCents: 50_000,
      tiers: [{ fromCents: 0, rateBps: 0, apyBps: 0 }],
    },
    1,
  ),
  product(
    'gold-checking',
    'checking',
    'Gold Checking',
    {
      monthlyFeeCents: 1_495,
      waiverText: 'No monthly fee when you keep at least $5,000 in the account at the end of every day of the month, or deposit at least $2,500 in the month.',
      waiverMinDailyBalanceCents: 500_000,
      waiverMonthlyDepositsCents: 250_000,
      tiers: [{ fromCents: 0, rateBps: 5, apyBps: 5 }],
    },
    2,
  ),
  product(
    'platinum-checking',
    'checking',
    'Platinum Checking',
    {
      monthlyFeeCents: 2_495,
      waiverText: 'No monthly fee when you keep at least $15,000 in the account at the end of every day of the month.',
      waiverMinDailyBalanceCents: 1_500_000,
      tiers: [
        { fromCents: 0, rateBps: 10, apyBps: 10 },
        { fromCents: 2_500_000, rateBps: 25, apyBps: 25 },
      ],
    },
    3,
  ),
  product('standard-savings', 'savings', 'Standard Savings', { openingDepositCents: 50_000, tiers: [{ fromCents: 0, rateBps: 150, apyBps: 151 }] }, 4),
  product(
    'platinum-select-money-market-savings',
    'savings',
    'Platinum Select Money Market Savings',
    {
      openingDepositCents: 250_000,
      tiers: [
        { fromCents: 0, rateBps: 200, apyBps: 202 },
        { fromCents: 1_000_000, rateBps: 250, apyBps: 253 },
      ],
    },
    5,
  ),
  product(
    'package-money-market-savings',
    'savings',
    'Package Money Market Savings',
    {
      openingDepositCents: 500_000,
      tiers: [
        { fromCents: 0, rateBps: 250, apyBps: 253 },
        { fromCents: 2_500_000, rateBps: 300, apyBps: 304 },
      ],
    },
    6,
  ),
];

export const seedProductList: ProductList = { items: seedProducts, asOf: '2026-11-30' };
