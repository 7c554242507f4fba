import { useMutation } from '@tanstack/react-query';
import { sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { rememberSession } from '../../../lib/api/get-me.ts';

/** `POST /api/v1/onboarding/phone/verify` `{ code }` -> 200 `{ user, next }`, or 400 `fields.code` (wrong, or expired after 5 tries). */
export function verifyPhoneCode(code: string) {
  return apiRequest('/onboarding/phone/verify', { method: 'POST', body: { code }, parse: (data) => sessionResponseSchema.parse(data) });
}

export function useVerifyPhoneCode() {
  return useMutation({ mutationFn: verifyPhoneCode, onSuccess: rememberSession });
}
