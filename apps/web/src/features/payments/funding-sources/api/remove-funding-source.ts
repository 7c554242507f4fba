import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../lib/api-client.ts';
import type { FundingSourceList } from './get-funding-sources.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

/**
 * `DELETE /api/v1/funding-sources/{id}` -> 204. A deposit from it that is still on its way stays
 * tied to it and clears (or comes back) as usual; no new deposit can name it.
 */
export function removeFundingSource(id: string): Promise<void> {
  return apiRequest(`/funding-sources/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => undefined });
}

export function useRemoveFundingSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFundingSource,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<FundingSourceList>(queryKeys.fundingSources, (list) => list && { items: list.items.filter((item) => item.id !== id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.fundingSources });
    },
  });
}
