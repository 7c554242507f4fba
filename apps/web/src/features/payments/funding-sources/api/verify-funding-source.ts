import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fundingSourceResponseSchema, type FundingSourceResponse, type VerifyFundingSourceRequest } from '@strongroom/contracts/funding-sources.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import type { FundingSourceList } from './get-funding-sources.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

export interface VerifyFundingSourceInput extends VerifyFundingSourceRequest {
  id: string;
}

/**
 * `POST /api/v1/funding-sources/{id}/verify` `{ amountsCents: [a, b] }` -> `{ fundingSource }`
 * verified. Wrong amounts answer 400 with `fields.amountsCents` saying how many tries are left; a
 * link that is not waiting any more (failed after three) answers 409.
 */
export function verifyFundingSource({ id, amountsCents }: VerifyFundingSourceInput): Promise<FundingSourceResponse> {
  return apiRequest(`/funding-sources/${encodeURIComponent(id)}/verify`, {
    method: 'POST',
    body: { amountsCents },
    parse: (data) => fundingSourceResponseSchema.parse(data),
  });
}

export function useVerifyFundingSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyFundingSource,
    onSuccess: ({ fundingSource }) => {
      queryClient.setQueryData<FundingSourceList>(
        queryKeys.fundingSources,
        (list) => list && { items: list.items.map((item) => (item.id === fundingSource.id ? fundingSource : item)) },
      );
    },
    // A wrong answer uses up a try, and the third fails the link: the list is read again either way.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.fundingSources });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    },
  });
}
