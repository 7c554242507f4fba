import type { Product, ProductList } from '@strongroom/contracts/products.ts';
import { ApiError, isRecord } from '../../../lib/api-client.ts';

/**
 * The check of `GET /api/v1/products`'s answer, by hand rather than with zod (as lib/public-settings.ts
 * does), in a chunk of its own that products.ts loads with the request: the public pages' entry
 * script stays within its 110 kB budget (e2e/bundle-budget.e2e.ts).
 */
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

function parseTiers(value: unknown): Product['tiers'] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tiers = value.flatMap((tier: unknown) =>
    isRecord(tier) && isCount(tier.fromCents) && isCount(tier.rateBps) && isCount(tier.apyBps)
      ? [{ fromCents: tier.fromCents, rateBps: tier.rateBps, apyBps: tier.apyBps }]
      : [],
  );
  return tiers.length === value.length ? tiers : undefined;
}

function parseProduct(value: unknown): Product | undefined {
  if (!isRecord(value)) return undefined;
  const { id, code, kind, name, monthlyFeeCents, waiverText, openingDepositCents, interestRateBps, apyBps, effectiveFrom } = value;
  const tiers = parseTiers(value.tiers);
  const nullableCount = (field: unknown) => (isCount(field) ? field : null);
  if (
    typeof id !== 'string' ||
    typeof code !== 'string' ||
    (kind !== 'checking' && kind !== 'savings') ||
    typeof name !== 'string' ||
    !isCount(monthlyFeeCents) ||
    typeof waiverText !== 'string' ||
    !isCount(openingDepositCents) ||
    !isCount(interestRateBps) ||
    !isCount(apyBps) ||
    !isDate(effectiveFrom) ||
    !tiers
  )
    return undefined;
  return {
    id,
    code,
    kind,
    name,
    monthlyFeeCents,
    waiverText,
    waiverMinDailyBalanceCents: nullableCount(value.waiverMinDailyBalanceCents),
    waiverMonthlyDepositsCents: nullableCount(value.waiverMonthlyDepositsCents),
    openingDepositCents,
    interestRateBps,
    apyBps,
    tiers,
    effectiveFrom,
    // The pages print the terms in force; an announced change is not shown on them.
    upcoming: null,
  };
}

export function parseProducts(data: unknown): ProductList {
  if (isRecord(data) && Array.isArray(data.items) && isDate(data.asOf)) {
    const items = data.items.map(parseProduct);
    if (items.every((item): item is Product => item !== undefined)) return { items, asOf: data.asOf };
  }
  throw new ApiError({ status: 200, code: 'internal_error', message: 'The products answer has an unexpected shape' });
}
