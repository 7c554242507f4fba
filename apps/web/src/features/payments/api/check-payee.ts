import { useQuery } from '@tanstack/react-query';
import { payeeCheckResponseSchema, type PayeeCheckResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface PayeeCheckInput {
  accountNumber: string;
  accountName: string;
}

/**
 * `POST /api/v1/transfers/payee-check` `{ accountNumber, accountName }` -> `{ result, accountName? }`:
 * does the name match the account at this bank? `accountName` comes only with a close match.
 */
export function checkPayee(input: PayeeCheckInput): Promise<PayeeCheckResponse> {
  return apiRequest('/transfers/payee-check', { method: 'POST', body: input, parse: (data) => payeeCheckResponseSchema.parse(data) });
}

/** A check moves nothing, so it is read like data: again whenever the number or name changes. */
export function usePayeeCheck(input: PayeeCheckInput | null) {
  return useQuery({
    queryKey: queryKeys.payeeCheck(input?.accountNumber, input?.accountName),
    queryFn: () => checkPayee(input ?? { accountNumber: '', accountName: '' }),
    enabled: input !== null,
    staleTime: 0,
    gcTime: 0,
  });
}
