import { z } from 'zod';
import { errorStatusByCode, type ErrorCode } from './http.ts';

/**
 * Every error the API answers has this shape (docs/product.md section 5). The codes are a closed set,
 * defined with their HTTP statuses in http.ts (zod-free, for the public pages), so that clients can
 * switch on them; the message is for people.
 */
export const errorCodes = Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(errorCodes);

export const errorResponseSchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    challengeId: z.string().optional(),
    /** With `step_up_required`: how this customer may answer, best first (step-up.ts `stepUpMethods`). */
    methods: z.array(z.enum(['passkey', 'totp', 'sms'])).optional(),
    requestId: z.string().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export function isErrorResponse(value: unknown): value is ErrorResponse {
  return errorResponseSchema.safeParse(value).success;
}
