import { useQuery } from '@tanstack/react-query';
import { fundingSourceListSchema } from '@strongroom/contracts/funding-sources.ts';
import type { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client.ts';

/** The cache holds the answer as the server gives it, so the deposit form and the list agree on its shape. */
export const fundingSourcesQueryKey = ['funding-sources'] as const;

export type FundingSourceList = z.infer<typeof fundingSourceListSchema>;

/** `GET /api/v1/funding-sources` -> `{ items }`: waiting, verified and failed links, newest first. */
export function getFundingSources(): Promise<FundingSourceList> {
  return apiRequest('/funding-sources', { parse: (data) => fundingSourceListSchema.parse(data) });
}

export function useFundingSources() {
  return useQuery({ queryKey: fundingSourcesQueryKey, queryFn: getFundingSources });
}
