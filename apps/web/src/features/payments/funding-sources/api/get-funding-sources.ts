import { useQuery } from '@tanstack/react-query';
import { fundingSourceListSchema } from '@strongroom/contracts/funding-sources.ts';
import type { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

export type FundingSourceList = z.infer<typeof fundingSourceListSchema>;

/** `GET /api/v1/funding-sources` -> `{ items }`: waiting, verified and failed links, newest first. */
export function getFundingSources(): Promise<FundingSourceList> {
  return apiRequest('/funding-sources', { parse: (data) => fundingSourceListSchema.parse(data) });
}

export function useFundingSources() {
  return useQuery({ queryKey: queryKeys.fundingSources, queryFn: getFundingSources });
}
