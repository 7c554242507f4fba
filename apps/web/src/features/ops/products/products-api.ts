import { useMutation, useQuery } from '@tanstack/react-query';
import { staffProductListSchema, staffProductResponseSchema, type ProductTermsChange } from '@strongroom/contracts/products.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const productsKey = ['staff', 'products'] as const;

/** `GET /api/v1/staff/products` (`products.edit`): every product's terms, past, in force and scheduled, and the bank's date. */
export function useStaffProducts() {
  return useQuery({ queryKey: productsKey, queryFn: () => apiRequest('/staff/products', { parse: (data) => staffProductListSchema.parse(data) }) });
}

/** `POST /api/v1/staff/products/{id}/terms`: new terms from a date after the bank's date. */
export function useScheduleTerms() {
  return useMutation({
    mutationFn: ({ productId, change }: { productId: string; change: ProductTermsChange }) =>
      apiRequest(`/staff/products/${encodeURIComponent(productId)}/terms`, {
        method: 'POST',
        body: change,
        parse: (data) => staffProductResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: productsKey }),
  });
}
