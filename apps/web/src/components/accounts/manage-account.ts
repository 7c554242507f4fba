import { useMutation } from '@tanstack/react-query';
import {
  managedAccountResponseSchema,
  type ChangeProductRequest,
  type CloseAccountRequest,
  type ManagedAccountResponse,
  type OpenAccountRequest,
} from '@strongroom/contracts/account-management.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { invalidateMoneyQueries } from '../payment/invalidate-money-queries.ts';

const parse = (data: unknown) => managedAccountResponseSchema.parse(data);

/**
 * `POST /api/v1/accounts` with `Idempotency-Key` -> 201 `{ account }`, the same account for a
 * replay. 400 without the disclosure accepted, 404 for an account that is not the customer's, 409
 * `no_funding_source`, 422 `opening_deposit_too_low` or `insufficient_funds`.
 */
export function openAccount(body: OpenAccountRequest, idempotencyKey: string): Promise<ManagedAccountResponse> {
  return apiRequest('/accounts', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey }, parse });
}

/** `POST /api/v1/accounts/{id}/close` -> 200 `{ account }` closed; 409 `account_in_use` says what depends on it. */
export function closeAccount(accountId: string, body: CloseAccountRequest): Promise<ManagedAccountResponse> {
  return apiRequest(`/accounts/${encodeURIComponent(accountId)}/close`, { method: 'POST', body, parse });
}

/** `PUT /api/v1/accounts/{id}/product` -> 200 `{ account }`: another checking tier. */
export function changeProduct(accountId: string, body: ChangeProductRequest): Promise<ManagedAccountResponse> {
  return apiRequest(`/accounts/${encodeURIComponent(accountId)}/product`, { method: 'PUT', body, parse });
}

const refresh = () => invalidateMoneyQueries(queryClient);

export function useOpenAccount() {
  return useMutation({ mutationFn: ({ body, key }: { body: OpenAccountRequest; key: string }) => openAccount(body, key), onSettled: refresh });
}

export function useCloseAccount(accountId: string) {
  return useMutation({ mutationFn: (body: CloseAccountRequest) => closeAccount(accountId, body), onSettled: refresh });
}

export function useChangeProduct(accountId: string) {
  return useMutation({ mutationFn: (body: ChangeProductRequest) => changeProduct(accountId, body), onSettled: refresh });
}
