import { z } from 'zod';

/**
 * `GET /api/v1/me`: who is signed in. Answers 401 `unauthenticated` without a live session. The
 * identity issue widens `user` with the profile; the web's route guard relies only on the status.
 */
export const meResponseSchema = z.object({
  user: z.object({ id: z.string() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** The double-submit CSRF cookie and header (PRODUCT.md D2). */
export const csrfCookieName = 'csrf';
export const csrfHeaderName = 'x-csrf-token';
