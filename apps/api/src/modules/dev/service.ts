import type { z } from 'zod';
import type { outboxListSchema } from '@strongroom/contracts/outbox.ts';
import type { Queryable } from '../../db/database.ts';
import { listOutboxMessages } from '../../platform/messaging/outbox-repository.ts';

/** The latest mail and SMS the sandbox bank "sent", to `to` when given, newest first. */
export async function outboxMessages(db: Queryable, to: string | undefined, limit: number): Promise<z.infer<typeof outboxListSchema>> {
  const rows = await listOutboxMessages(db, to, limit);
  return {
    items: rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      createdAt: row.created_at.toISOString(),
    })),
  };
}
