import { useEffect, useSyncExternalStore } from 'react';
import type { Product, ProductList } from '@strongroom/contracts/products.ts';
import { apiRequest, ApiError } from '../../../lib/api-client.ts';

/**
 * `GET /api/v1/products` (public): the catalogue as it stands on the bank's date, which the
 * /current and /savings pages print, so what they say is what the bank does (issue 32 item 1).
 * Like lib/public-settings.ts it keeps a module-level cache and checks the answer by hand, not with
 * the zod schema, to keep the public pages inside their 110 KB JavaScript budget.
 */
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
  // The answer's check arrives with the answer, in a chunk of its own (parse-products.ts).
  inFlight ??= import('./parse-products.ts')
    .then(({ parseProducts }) => apiRequest('/products', { parse: parseProducts }))
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
