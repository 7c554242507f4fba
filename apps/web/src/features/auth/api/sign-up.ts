import { useMutation } from '@tanstack/react-query';
import { signupResponseSchema, type SignupRequest } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/v1/auth/signup` -> 201 `{ message, next: 'verify-email' }` and an HttpOnly
 * `signup_browser` cookie that lets this browser's verify page sign in once the link is opened.
 * A taken address gets the same answer (the owner is told by email), so nobody learns who banks here.
 */
export function signUp(input: SignupRequest) {
  return apiRequest('/auth/signup', { method: 'POST', body: input, parse: (data) => signupResponseSchema.parse(data) });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
