import { useQuery } from '@tanstack/react-query';
import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `POST /api/v1/auth/verify-email` `{ token }` -> 200 `{ message }`, or 400 when the link is invalid, expired or used. */
export function verifyEmail(token: string) {
  return apiRequest('/auth/verify-email', { method: 'POST', body: { token }, parse: (data) => messageResponseSchema.parse(data) });
}

/**
 * Runs once per link as the page opens. A query rather than a mutation, so that React's double
 * mount in development and a re-render never spend the one-time link twice.
 */
export function useVerifyEmail(token: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: queryKeys.verifyEmail(token),
    queryFn: () => verifyEmail(token),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
