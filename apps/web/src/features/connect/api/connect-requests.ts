import { useQuery } from '@tanstack/react-query';
import {
  connectRedirectSchema,
  connectRequestSchema,
  type ApproveConnectRequest,
  type ConnectRedirect,
  type ConnectRequest,
} from '@strongroom/contracts/connected-apps.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { MoneyRequestHeaders } from '../../../components/step-up/use-step-up-request.ts';

const requestPath = (uid: string) => `/connect/requests/${encodeURIComponent(uid)}`;

/** This feature's query keys. */
export const connectKeys = {
  request: (uid: string) => ['connect-requests', uid],
} as const;

/**
 * `GET /connect/requests/{uid}` -> who asks for what; 404 when the request is unknown, already
 * answered or expired (it is not asked again: a second try would answer the same).
 */
export function useConnectRequest(uid: string) {
  return useQuery({
    queryKey: connectKeys.request(uid),
    queryFn: (): Promise<ConnectRequest> => apiRequest(requestPath(uid), { parse: (data) => connectRequestSchema.parse(data) }),
    retry: false,
    // The customer reads and decides; a refetch on focus would only reset nothing and cost a request.
    refetchOnWindowFocus: false,
  });
}

/**
 * `POST /connect/requests/{uid}/approve` (Idempotency-Key; a step-up every time, so the first
 * answer is 403 step_up_required and the repeat carries X-Step-Up) -> `{ redirectTo }`.
 */
export function approveConnectRequest(uid: string, body: ApproveConnectRequest, headers: MoneyRequestHeaders): Promise<ConnectRedirect> {
  return apiRequest(`${requestPath(uid)}/approve`, { method: 'POST', body, headers, parse: (data) => connectRedirectSchema.parse(data) });
}

/** `POST /connect/requests/{uid}/refuse` -> `{ redirectTo }`: the app hears access_denied. */
export function refuseConnectRequest(uid: string): Promise<ConnectRedirect> {
  return apiRequest(`${requestPath(uid)}/refuse`, { method: 'POST', body: {}, parse: (data) => connectRedirectSchema.parse(data) });
}
