import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `POST /api/v1/auth/password-reset` `{ email }` -> 200 `{ message }`, the same whether or not the address banks here. */
export function requestPasswordReset(input: { email: string }) {
  return apiRequest('/auth/password-reset', { method: 'POST', body: input, parse: (data) => messageResponseSchema.parse(data) });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
