import type { Queryable } from '../../db/database.ts';
import type { ContactMessageRequest } from '@strongroom/contracts/contact.ts';

export interface ContactMessageRow {
  id: string;
  name: string;
  email: string;
  subject: string;
  created_at: Date;
}

export async function insertContactMessage(db: Queryable, message: ContactMessageRequest, ip: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO contact_messages (name, email, phone, subject, message, ip)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [message.name, message.email, message.phone, message.subject, message.message, ip],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

export async function findContactMessage(db: Queryable, id: string): Promise<ContactMessageRow | undefined> {
  const [row] = await db.query<ContactMessageRow>('SELECT id, name, email, subject, created_at FROM contact_messages WHERE id = $1', [id]);
  return row;
}

export interface ContactMessageListRow extends ContactMessageRow {
  phone: string;
  message: string;
  answered_at: Date | null;
}

export async function listRecentContactMessages(db: Queryable, limit: number): Promise<ContactMessageListRow[]> {
  return db.query<ContactMessageListRow>(
    'SELECT id, name, email, phone, subject, message, created_at, answered_at FROM contact_messages ORDER BY created_at DESC, id DESC LIMIT $1',
    [limit],
  );
}
