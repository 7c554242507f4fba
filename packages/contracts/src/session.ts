import type { z } from 'zod';
import { sessionResponseSchema } from './auth.ts';

/** `GET /api/v1/me`: who is signed in and their next onboarding step; 401 without a live session. */
export const meResponseSchema = sessionResponseSchema;
export type MeResponse = z.infer<typeof meResponseSchema>;
