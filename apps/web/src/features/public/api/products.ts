import type { Product, ProductList } from '@strongroom/contracts/products.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { createPublicResource, type PublicResourceState } from '../../../lib/public-resource.ts';

/**
 * `GET /api/v1/products` (public): the catalogue as it stands on the bank's date, which the
 * /current and /savings pages print, so what they say is what the bank does (issue 32 item 1).
 * Like lib/public-settings.ts it keeps a module-level cache and checks the answer by hand, not with
 * the zod schema, to keep the public pages inside their 110 KB JavaScript budget.
 */
export type ProductsState = PublicResourceState<ProductList>;

// The answer's check arrives with the answer, in a chunk of its own (parse-products.ts).
const catalogue = createPublicResource(async () => {
  const { parseProducts } = await import('./parse-products.ts');
  return apiRequest('/products', { parse: parseProducts });
});

/** Starts the request unless it is running or has succeeded; after a failure, "Try again" calls it. */
export const loadProducts = catalogue.load;

/** Test seam: forget the cached answer. */
export const resetProductsCache = catalogue.reset;

/** The catalogue's state; pre-rendered pages show the loading state, as a visitor's first paint does. */
export const useProducts = catalogue.use;

/** The product a page's offer is about, once the catalogue has loaded. */
export function productOf(products: ProductsState, code: string): Product | undefined {
  return products.status === 'success' ? products.value.items.find((product) => product.code === code) : undefined;
}

/** A rate or an APY in basis points as a percentage with two decimals: 151 -> "1.51%"; whole integers, no float. */
export function formatBps(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;
}
