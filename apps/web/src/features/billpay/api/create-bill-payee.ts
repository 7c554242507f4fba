import { useMutation } from '@tanstack/react-query';
import { billPayeeResponseSchema, type BillPayee, type CreateBillPayeeRequest } from '@strongroom/contracts/bill-payees.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `POST /api/v1/bill-payees` -> 201 `{ payee }`; 400 `validation_failed` with a field message on
 * `accountNumber` (it does not match the biller's pattern: the message names the example) or
 * `billerId`; 409 when the customer already has this account at this biller.
 */
export async function createBillPayee(input: CreateBillPayeeRequest): Promise<BillPayee> {
  const answer = await apiRequest('/bill-payees', { method: 'POST', body: input, parse: (data) => billPayeeResponseSchema.parse(data) });
  return answer.payee;
}

export function useCreateBillPayee() {
  return useMutation({
    mutationFn: createBillPayee,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.billPayees }),
  });
}
