import { stepUpResendResponseSchema } from '@strongroom/contracts/step-up.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/v1/step-up/{challengeId}/resend` -> `{ sentTo }`: a new code for the same challenge.
 * Rate-limited: 429 `rate_limited` with Retry-After. A challenge that can no longer be used answers 409.
 */
export function resendStepUpCode(challengeId: string) {
  return apiRequest(`/step-up/${encodeURIComponent(challengeId)}/resend`, {
    method: 'POST',
    parse: (data) => stepUpResendResponseSchema.parse(data),
  });
}
