import { z } from 'zod';

/**
 * Every error the API answers has this shape (PRODUCT.md section 5). The codes are a closed set so
 * that clients can switch on them; the message is for people.
 */
export const errorCodes = [
  'validation_failed',
  'bad_request',
  'unauthenticated',
  'step_up_required',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'insufficient_funds',
  'rate_limited',
  'service_unavailable',
  'internal_error',
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const errorStatusByCode = {
  validation_failed: 400,
  bad_request: 400,
  unauthenticated: 401,
  step_up_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  insufficient_funds: 422,
  rate_limited: 429,
  service_unavailable: 503,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;

export const errorResponseSchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    challengeId: z.string().optional(),
    requestId: z.string().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export function isErrorResponse(value: unknown): value is ErrorResponse {
  return errorResponseSchema.safeParse(value).success;
}
