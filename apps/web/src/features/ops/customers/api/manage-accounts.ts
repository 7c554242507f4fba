import { useMutation, useQuery } from '@tanstack/react-query';
import {
  managedAccountResponseSchema,
  type ManagedAccountResponse,
  type StaffChangeProductRequest,
  type StaffCloseAccountRequest,
  type StaffOpenAccountRequest,
} from '@strongroom/contracts/account-management.ts';
import { productListSchema } from '@strongroom/contracts/products.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryClient } from '../../../../lib/query-client.ts';
import { staffQueryKeys } from '../../api/staff-query-keys.ts';

/** What staff do to a customer's accounts (`accounts.manage`), each with a reason the audit log keeps. */
export type StaffAccountAction =
  | { kind: 'open'; customerId: string; body: StaffOpenAccountRequest; idempotencyKey: string }
  | { kind: 'close'; accountId: string; body: StaffCloseAccountRequest }
  | { kind: 'change'; accountId: string; body: StaffChangeProductRequest };

const parse = (data: unknown) => managedAccountResponseSchema.parse(data);

function send(action: StaffAccountAction): Promise<ManagedAccountResponse> {
  switch (action.kind) {
    case 'open':
      return apiRequest(`/staff/customers/${encodeURIComponent(action.customerId)}/accounts`, {
        method: 'POST',
        body: action.body,
        headers: { 'idempotency-key': action.idempotencyKey },
        parse,
      });
    case 'close':
      return apiRequest(`/staff/accounts/${encodeURIComponent(action.accountId)}/close`, { method: 'POST', body: action.body, parse });
    case 'change':
      return apiRequest(`/staff/accounts/${encodeURIComponent(action.accountId)}/product`, { method: 'PUT', body: action.body, parse });
  }
}

export function useStaffAccountAction() {
  return useMutation({ mutationFn: send, onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.customers }) });
}

/** `GET /api/v1/products`: the catalogue staff open and change accounts to. */
export function useDepositProducts() {
  return useQuery({
    queryKey: [...staffQueryKeys.all, 'deposit-products'],
    queryFn: () => apiRequest('/products', { parse: (data) => productListSchema.parse(data).items }),
    staleTime: 60_000,
  });
}
