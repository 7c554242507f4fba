import type { z } from 'zod';
import { sessionResponseSchema } from './auth.ts';
import { customerFrozenNoticeSchema } from './staff-customers.ts';

/**
 * `GET /api/v1/me`: who is signed in and their next onboarding step; 401 without a live session.
 * `frozen` is set while staff have frozen the customer (issue 12): the signed-in area shows a banner.
 * Optional because sign-in and onboarding answers (without it) fill the same cache entry on the web.
 */
export const meResponseSchema = sessionResponseSchema.extend({ frozen: customerFrozenNoticeSchema.optional() });
export type MeResponse = z.infer<typeof meResponseSchema>;
