import { useQuery } from '@tanstack/react-query';
import { fundingSourceListSchema, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `GET /api/v1/funding-sources`, in the cache the deposit screens share (the same key): the
 * verified ones are where an opening deposit may be pulled from.
 */
export function getFundingSources(): Promise<FundingSource[]> {
  return apiRequest('/funding-sources', { parse: (data) => fundingSourceListSchema.parse(data).items });
}

export function useVerifiedSources() {
  return useQuery({
    queryKey: queryKeys.fundingSources,
    queryFn: getFundingSources,
    select: (items) => items.filter((source) => source.status === 'verified'),
  });
}
