import { useEffect, useSyncExternalStore } from 'react';
import type { Product, ProductList } from '@strongroom/contracts/products.ts';
import { apiRequest, ApiError, isRecord } from '../../../lib/api-client.ts';

/**
 * `GET /api/v1/products` (public): the catalogue as it stands on the bank's date, which the
 * /current and /savings pages print, so what they say is what the bank does (issue 32 item 1).
 * Like lib/public-settings.ts it keeps a module-level cache and checks the answer by hand, not with
 * the zod schema, to keep the public pages inside their 110 KB JavaScript budget.
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

export type ProductsState = { status: 'loading' } | { status: 'success'; products: ProductList } | { status: 'error'; error: ApiError };

const preRenderedState: ProductsState = { status: 'loading' };
let state: ProductsState = preRenderedState;
let inFlight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function setState(next: ProductsState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Starts the request unless it is running or has succeeded; after a failure, "Try again" calls it. */
export function loadProducts(): Promise<void> {
  if (state.status === 'success') return Promise.resolve();
  if (state.status === 'error') setState({ status: 'loading' });
  inFlight ??= apiRequest('/products', { parse: parseProducts })
    .then(
      (products) => setState({ status: 'success', products }),
      (error: unknown) =>
        setState({ status: 'error', error: error instanceof ApiError ? error : new ApiError({ status: 0, code: 'internal_error', message: String(error) }) }),
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Test seam: forget the cached answer. */
export function resetProductsCache() {
  state = preRenderedState;
  inFlight = null;
}

/** The catalogue's state; pre-rendered pages show the loading state, as a visitor's first paint does. */
export function useProducts(): ProductsState {
  useEffect(() => {
    void loadProducts();
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => preRenderedState,
  );
}

/** The product a page's offer is about, once the catalogue has loaded. */
export function productOf(products: ProductsState, code: string): Product | undefined {
  return products.status === 'success' ? products.products.items.find((product) => product.code === code) : undefined;
}

/** A rate or an APY in basis points as a percentage with two decimals: 151 -> "1.51%"; whole integers, no float. */
export function formatBps(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;
}
