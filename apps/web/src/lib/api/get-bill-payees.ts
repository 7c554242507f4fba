import { useQuery } from '@tanstack/react-query';
import { billPayeeListSchema, type BillPayeeList } from '@strongroom/contracts/bill-payees.ts';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * `GET /api/v1/bill-payees` -> `{ items }`: the customer's bill payees (removed ones left out), by
 * nickname. Shared: Bill Pay lists them by category, the scheduled payments pay one of them.
 */
export function getBillPayees(): Promise<BillPayeeList> {
  return apiRequest('/bill-payees', { parse: (data) => billPayeeListSchema.parse(data) });
}

export function useBillPayees() {
  return useQuery({ queryKey: queryKeys.billPayees, queryFn: getBillPayees });
}
