import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

export interface PasswordResetInput {
  token: string;
  password: string;
  confirmPassword: string;
}

/** `POST /api/v1/auth/password-reset/complete` -> 200 `{ message }`; it ends every session of the customer. */
export function completePasswordReset(input: PasswordResetInput) {
  return apiRequest('/auth/password-reset/complete', { method: 'POST', body: input, parse: (data) => messageResponseSchema.parse(data) });
}

export function useCompletePasswordReset() {
  return useMutation({
    mutationFn: completePasswordReset,
    // Every session has just ended, this browser's included.
    onSuccess: () => queryClient.clear(),
  });
}
