import { z } from 'zod';

/** `GET /api/v1/health`: the process is up. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });

/** `GET /api/v1/ready`: the process can reach its database. */
export const readyResponseSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
});

export const bankModeSchema = z.enum(['sandbox', 'production']);
export type BankMode = z.infer<typeof bankModeSchema>;
