import { z } from 'zod';
import { plainString } from './fields.ts';

/** Sandbox only: `GET /api/v1/dev/outbox?to=` lists mail and SMS sent to an address, newest first. */
export const outboxChannelSchema = z.enum(['email', 'sms']);

export const outboxQuerySchema = z.object({
  to: plainString().trim().min(3).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const outboxItemSchema = z.object({
  id: z.string(),
  channel: outboxChannelSchema,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const outboxListSchema = z.object({ items: z.array(outboxItemSchema) });
