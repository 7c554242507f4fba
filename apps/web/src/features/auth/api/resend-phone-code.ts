import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `POST /api/v1/onboarding/phone/resend` -> 200 `{ message }`, or 429 with Retry-After (once a minute at most). */
export function resendPhoneCode() {
  return apiRequest('/onboarding/phone/resend', { method: 'POST', parse: (data) => messageResponseSchema.parse(data) });
}
