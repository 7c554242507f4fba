import { useMutation } from '@tanstack/react-query';
import { sessionResponseSchema, type LoginRequest, type SessionResponse } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `POST /api/v1/auth/login` `{ email, password }` -> 200 `{ user, next }`, and the session and
 * `csrf` cookies.
 */
export function login(input: LoginRequest): Promise<SessionResponse> {
  return apiRequest('/auth/login', {
    method: 'POST',
    body: input,
    parse: (data) => sessionResponseSchema.parse(data),
  });
}

export function useLogin() {
  return useMutation({
    mutationFn: login,
    // A new session: whatever was known about the previous one (a 401) is out of date.
    onSuccess: () => queryClient.resetQueries({ queryKey: queryKeys.me }),
  });
}
