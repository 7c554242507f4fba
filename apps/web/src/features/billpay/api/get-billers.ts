import { useQuery } from '@tanstack/react-query';
import { billerListSchema, type BillCategory, type BillerList } from '@strongroom/contracts/billers.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/billers?category=` -> `{ items: [{ id, name, category, accountNumberPattern, accountNumberExample }] }`. */
export function getBillers(category: BillCategory): Promise<BillerList> {
  return apiRequest('/billers', { query: { category }, parse: (data) => billerListSchema.parse(data) });
}

export function useBillers(category: BillCategory) {
  return useQuery({ queryKey: queryKeys.billers(category), queryFn: () => getBillers(category) });
}
