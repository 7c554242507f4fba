import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { notMeResponseSchema, securityEventListSchema } from '@strongroom/contracts/security-events.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** `GET /me/security-events?cursor=`: the customer's own security events, newest first, page after page. */
export function useSecurityEvents() {
  return useInfiniteQuery({
    queryKey: queryKeys.securityEvents,
    queryFn: ({ pageParam }) => apiRequest('/me/security-events', { query: { cursor: pageParam }, parse: (data) => securityEventListSchema.parse(data) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * `POST /me/security-events/{id}/not-me`: "This wasn't me". Every session ends, this one too, so
 * the caller clears the cache and sends the customer to sign in again.
 */
export function useReportNotMe() {
  return useMutation({
    mutationFn: (eventId: string) =>
      apiRequest(`/me/security-events/${encodeURIComponent(eventId)}/not-me`, { method: 'POST', parse: (data) => notMeResponseSchema.parse(data) }).then(
        (answer) => answer.report,
      ),
  });
}
