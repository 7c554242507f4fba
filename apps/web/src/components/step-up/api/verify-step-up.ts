import { stepUpVerifyResponseSchema } from '@strongroom/contracts/step-up.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export interface VerifyStepUpInput {
  challengeId: string;
  code: string;
}

/**
 * `POST /api/v1/step-up/{challengeId}` `{ code }` -> `{ verified: true }`. A wrong code answers 400
 * with `fields.code`; an expired, spent or exhausted challenge answers 409 `conflict`.
 */
export function verifyStepUp({ challengeId, code }: VerifyStepUpInput) {
  return apiRequest(`/step-up/${encodeURIComponent(challengeId)}`, {
    method: 'POST',
    body: { code },
    parse: (data) => stepUpVerifyResponseSchema.parse(data),
  });
}
