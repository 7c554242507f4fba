import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `POST /api/v1/auth/signup/resend` -> 200 `{ message }`, or 429 with Retry-After when asked again too soon. */
export function resendSignupEmail() {
  return apiRequest('/auth/signup/resend', { method: 'POST', parse: (data) => messageResponseSchema.parse(data) });
}
