import { useQuery } from '@tanstack/react-query';
import { paymentListSchema, type Payment } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /transfers?status=in_review` -> `{ items }`: the customer's transfers held for review (docs/product.md D1). */
export async function getHeldTransfers(): Promise<Payment[]> {
  const list = await apiRequest('/transfers', { query: { status: 'in_review' }, parse: (data) => paymentListSchema.parse(data) });
  return list.items;
}

/** Asked only when someone is signed in; the live event 'accounts' (a release or a rejection) makes it stale. */
export function useHeldTransfers(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.heldTransfers, queryFn: getHeldTransfers, enabled });
}
