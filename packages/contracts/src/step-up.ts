import { z } from 'zod';
import { validationMessages } from './messages.ts';

/**
 * Step-up (PRODUCT.md D10). A request that needs one answers 403 `step_up_required` with a
 * `challengeId`; a 6-digit code goes by SMS. `POST /step-up/{challengeId}` with the code completes
 * it; the original request is then repeated with the same Idempotency-Key and `X-Step-Up`.
 */
export const stepUpCodeLength = 6;
export const stepUpCodeValidMinutes = 10;
export const stepUpMaxAttempts = 5;
/** How long a verified challenge may be used for its one request. */
export const stepUpVerifiedValidMinutes = 5;

export const stepUpVerifyRequestSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, validationMessages.stepUpCodeInvalid),
});

export const stepUpVerifyResponseSchema = z.object({ verified: z.literal(true) });

/** `POST /step-up/{challengeId}/resend`: a new code for the same challenge (rate-limited). */
export const stepUpResendResponseSchema = z.object({ sentTo: z.string() });
