import type { Queryable } from '../../db/database.ts';

export type OutboxChannel = 'email' | 'sms';

export interface OutboxRow {
  id: string;
  channel: OutboxChannel;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Date;
}

export interface NewOutboxMessage {
  channel: OutboxChannel;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function insertOutboxMessage(db: Queryable, message: NewOutboxMessage): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO outbox_messages (channel, to_address, subject, text_body, html_body)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [message.channel, message.to, message.subject, message.text, message.html ?? null],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

/** Newest first; an address matches without regard to case (emails) or exactly (phone numbers). */
export async function listOutboxMessages(db: Queryable, to: string | undefined, limit: number): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT id, channel, to_address, subject, text_body, created_at
       FROM outbox_messages
      WHERE $1::text IS NULL OR lower(to_address) = lower($1::text)
      ORDER BY sequence DESC
      LIMIT $2`,
    [to ?? null, limit],
  );
}
