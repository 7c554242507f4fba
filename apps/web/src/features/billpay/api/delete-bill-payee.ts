import { useMutation } from '@tanstack/react-query';
import type { BillPayeeList } from '@strongroom/contracts/bill-payees.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `DELETE /api/v1/bill-payees/{id}` -> 204; payments already made keep naming the payee. */
export function deleteBillPayee(id: string): Promise<void> {
  return apiRequest(`/bill-payees/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => undefined });
}

export function useDeleteBillPayee() {
  return useMutation({
    mutationFn: deleteBillPayee,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<BillPayeeList>(queryKeys.billPayees, (list) => list && { items: list.items.filter((item) => item.id !== id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.billPayees });
    },
  });
}
