import { useQuery } from '@tanstack/react-query';
import { productListSchema, type Product } from '@strongroom/contracts/products.ts';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** `GET /api/v1/products`: the catalogue with the terms in force on the bank's date, what an opening discloses. */
export function getProducts(): Promise<Product[]> {
  return apiRequest('/products', { parse: (data) => productListSchema.parse(data).items });
}

export function useProducts() {
  return useQuery({ queryKey: queryKeys.products, queryFn: getProducts, staleTime: 60_000 });
}
