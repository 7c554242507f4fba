import { errorResponseSchema } from '@strongroom/contracts/errors.ts';

/** The HTTP statuses a route may answer with the error shape ({ error: { code, message, fields? } }). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

/**
 * The `response` entries of a route's schema for the error statuses it can answer, each the one
 * error shape of docs/product.md section 5: `response: { 200: okSchema, ...errorResponses(400, 404) }`.
 */
export function errorResponses<const Statuses extends readonly ErrorStatus[]>(...statuses: Statuses): Record<Statuses[number], typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<Statuses[number], typeof errorResponseSchema>;
}
