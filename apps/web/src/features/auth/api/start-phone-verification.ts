import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema } from '@strongroom/contracts/auth.ts';
import type { PhoneSignupRequest } from '@strongroom/contracts/onboarding.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/v1/onboarding/phone` `{ countryCode, phoneNumber }` -> 200 `{ message }` and an SMS with
 * a 4-digit code; 400 when the number does not fit the country, 409 when this step is not the next.
 */
export function startPhoneVerification(input: PhoneSignupRequest) {
  return apiRequest('/onboarding/phone', { method: 'POST', body: input, parse: (data) => messageResponseSchema.parse(data) });
}

export function useStartPhoneVerification() {
  return useMutation({ mutationFn: startPhoneVerification });
}
