import { z } from 'zod';
import { validationMessages } from './messages.ts';

/**
 * Step-up (docs/product.md D10). A request that needs one answers 403 `step_up_required` with a
 * `challengeId`; a 6-digit code goes by SMS. `POST /step-up/{challengeId}` with the code completes
 * it; the original request is then repeated with the same Idempotency-Key and `X-Step-Up`.
 */
export const stepUpCodeLength = 6;
export const stepUpCodeValidMinutes = 10;
export const stepUpMaxAttempts = 5;
/** How long a verified challenge may be used for its one request. */
export const stepUpVerifiedValidMinutes = 5;

/**
 * How a customer may answer a challenge, best first in the 403's `methods` (issue 15): a passkey,
 * the 6-digit code of an authenticator app (or, in its place, one of its recovery codes), or a
 * 6-digit code by SMS, always last. With only 'sms' the text goes at once; otherwise it goes when
 * the customer asks for it (`POST /step-up/{id}/resend`), so choosing the app sends no SMS.
 */
export const stepUpMethods = ['passkey', 'totp', 'sms'] as const;
export type StepUpMethod = (typeof stepUpMethods)[number];
export const stepUpMethodSchema = z.enum(stepUpMethods);

/** A recovery code as shown: ten letters and digits in two groups of five (the dash optional). */
export const recoveryCodeRegex = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;

/** A 6-digit code (SMS or authenticator app) or a recovery code of the app. */
export const stepUpVerifyRequestSchema = z.object({
  code: z
    .string()
    .trim()
    .refine((code) => /^\d{6}$/.test(code) || recoveryCodeRegex.test(code), validationMessages.stepUpCodeInvalid),
});

export const stepUpVerifyResponseSchema = z.object({ verified: z.literal(true) });

/** `POST /step-up/{challengeId}/resend`: a new code for the same challenge (rate-limited). */
export const stepUpResendResponseSchema = z.object({ sentTo: z.string() });
