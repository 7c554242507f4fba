import { useQuery } from '@tanstack/react-query';
import { beneficiaryListSchema } from '@strongroom/contracts/beneficiaries.ts';
import type { z } from 'zod';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

export type BeneficiaryList = z.infer<typeof beneficiaryListSchema>;

/** `GET /api/v1/beneficiaries` -> `{ items }`, newest first. */
export function getBeneficiaries(): Promise<BeneficiaryList> {
  return apiRequest('/beneficiaries', { parse: (data) => beneficiaryListSchema.parse(data) });
}

export function useBeneficiaries() {
  return useQuery({ queryKey: queryKeys.beneficiaries, queryFn: getBeneficiaries });
}
