import { useMutation } from '@tanstack/react-query';
import { beneficiaryResponseSchema, type Beneficiary, type CreateBeneficiaryRequest } from '@strongroom/contracts/beneficiaries.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `POST /api/v1/beneficiaries` -> 201 `{ beneficiary }`; 400 `validation_failed` with `fields`;
 * 409 `conflict` when the customer already has this account saved.
 */
export async function createBeneficiary(input: CreateBeneficiaryRequest): Promise<Beneficiary> {
  const answer = await apiRequest('/beneficiaries', { method: 'POST', body: input, parse: (data) => beneficiaryResponseSchema.parse(data) });
  return answer.beneficiary;
}

export function useCreateBeneficiary() {
  return useMutation({
    mutationFn: createBeneficiary,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries }),
  });
}
