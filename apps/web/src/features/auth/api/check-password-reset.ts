import { useQuery } from '@tanstack/react-query';
import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `POST /api/v1/auth/password-reset/check` `{ token }` -> 200, or 400 when the link is invalid, expired or used. */
export function checkPasswordReset(token: string) {
  return apiRequest('/auth/password-reset/check', { method: 'POST', body: { token }, parse: (data) => messageResponseSchema.parse(data) });
}

/** Checked as the page opens (seed section 4), so nobody types a new password into a dead link. */
export function useCheckPasswordReset(token: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: queryKeys.passwordResetCheck(token),
    queryFn: () => checkPasswordReset(token),
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
