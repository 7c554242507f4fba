import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import type { BeneficiaryList } from '../../../lib/api/get-beneficiaries.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `DELETE /api/v1/beneficiaries/{id}` -> 204. */
export function deleteBeneficiary(id: string): Promise<void> {
  return apiRequest(`/beneficiaries/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => undefined });
}

export function useDeleteBeneficiary() {
  return useMutation({
    mutationFn: deleteBeneficiary,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<BeneficiaryList>(queryKeys.beneficiaries, (list) => list && { items: list.items.filter((item) => item.id !== id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries });
    },
  });
}
