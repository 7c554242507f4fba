import { useQuery } from '@tanstack/react-query';
import { meResponseSchema, type MeResponse } from '@strongroom/contracts/session.ts';
import { apiRequest } from '../api-client.ts';
import { queryClient } from '../query-client.ts';
import { queryKeys } from '../query-keys.ts';

/** `GET /api/v1/me`: 200 with the signed-in customer, 401 `unauthenticated` without a live session. */
export function getMe(): Promise<MeResponse> {
  return apiRequest('/me', { parse: (data) => meResponseSchema.parse(data) });
}

/** `follow`: ask again every so often while `until` is not true of the answer (a screen waiting for a change staff make). */
export function useMe(follow?: { everyMs: number; until: (me: MeResponse) => boolean }) {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: getMe,
    // Whether the session is still alive is worth asking again whenever the customer comes back.
    staleTime: 0,
    refetchInterval: follow ? (query) => (query.state.data && follow.until(query.state.data) ? false : follow.everyMs) : false,
  });
}

/**
 * Each onboarding step answers with the customer and their next step, as `/me` would: keeping that
 * answer lets the next screen's guard see the step just done without asking the server again.
 */
export function rememberSession(session: MeResponse): void {
  queryClient.setQueryData(queryKeys.me, session);
}
