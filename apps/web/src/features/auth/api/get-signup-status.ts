import { useQuery } from '@tanstack/react-query';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { signupStatusResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { rememberSession } from '../../../lib/api/get-me.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `POST /api/v1/auth/signup/status` -> `{ verified: false }` or `{ verified: true, user, next }`.
 * The answer that says verified has also signed this browser in (session and csrf cookies), so the
 * session is remembered at once. It is a POST because it can start a session; asking again is safe.
 */
export async function getSignupStatus() {
  const status = await apiRequest('/auth/signup/status', { method: 'POST', parse: (data) => signupStatusResponseSchema.parse(data) });
  if (status.verified) rememberSession({ user: status.user, next: status.next });
  return status;
}

/** Asks every second (seed section 9) until the link has been opened, in any browser or device. */
export function useSignupStatus() {
  return useQuery({
    queryKey: queryKeys.signupStatus,
    queryFn: getSignupStatus,
    refetchInterval: (query) => (query.state.data?.verified ? false : businessConstants.verificationPollIntervalMs),
    // The link is usually opened in another tab or on the phone, while this tab waits unseen.
    refetchIntervalInBackground: true,
    // A failed ask (a network blip) is simply asked again at the next interval.
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}
