import type { Queryable } from '../../db/database.ts';
import type { StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import type { KeysetPosition } from '../../platform/keyset-cursor.ts';

/** The messages queue's SQL (issue 12): contact-form messages and the staff replies to them. */
export interface StaffMessageRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
  created_at: Date;
  answered_at: Date | null;
  sort_text: string;
}

export interface MessageReplyRow {
  id: string;
  contact_message_id: string;
  text: string;
  staff_id: string;
  staff_email: string;
  created_at: Date;
}

export const messageQueuePageSize = 25;

const columns = 'id, name, email, phone, subject, message, created_at, answered_at';

/** Open messages oldest first (the longest wait on top); answered ones newest answer first. */
export async function listStaffMessages(
  db: Queryable,
  status: StaffMessageStatus,
  after: KeysetPosition | undefined,
): Promise<{ rows: StaffMessageRow[]; total: number }> {
  const open = status === 'open';
  const sortColumn = open ? 'created_at' : 'answered_at';
  const filter = open ? 'answered_at IS NULL' : 'answered_at IS NOT NULL';
  const comparison = open ? '>' : '<';
  const direction = open ? 'ASC' : 'DESC';
  const parameters: unknown[] = [messageQueuePageSize + 1];
  let keyset = '';
  if (after) {
    parameters.push(after.at, after.id);
    keyset = `AND (${sortColumn}, id) ${comparison} ($2::timestamptz, $3::uuid)`;
  }
  const rows = await db.query<StaffMessageRow>(
    `SELECT ${columns}, ${sortColumn}::text AS sort_text FROM contact_messages
      WHERE ${filter} ${keyset} ORDER BY ${sortColumn} ${direction}, id ${direction} LIMIT $1`,
    parameters,
  );
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::integer AS total FROM contact_messages WHERE ${filter}`);
  return { rows, total: count?.total ?? 0 };
}

export async function findStaffMessage(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<StaffMessageRow | undefined> {
  const [row] = await db.query<StaffMessageRow>(
    `SELECT ${columns}, created_at::text AS sort_text FROM contact_messages WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row;
}

export async function repliesTo(db: Queryable, messageIds: readonly string[]): Promise<MessageReplyRow[]> {
  if (messageIds.length === 0) return [];
  return db.query<MessageReplyRow>(
    `SELECT r.id, r.contact_message_id, r.text, r.staff_id, s.email AS staff_email, r.created_at
       FROM message_replies r JOIN staff s ON s.id = r.staff_id
      WHERE r.contact_message_id = ANY($1::uuid[]) ORDER BY r.created_at, r.id`,
    [messageIds],
  );
}

/** Stores a reply and marks the message answered (a follow-up moves its answered time on). */
export async function insertContactReply(db: Queryable, reply: { contactMessageId: string; staffId: string; text: string }): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO message_replies (source, contact_message_id, staff_id, text) VALUES ('contact_form', $1, $2, $3) RETURNING id`,
    [reply.contactMessageId, reply.staffId, reply.text],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  await db.query('UPDATE contact_messages SET answered_at = now(), answered_by = $2 WHERE id = $1', [reply.contactMessageId, reply.staffId]);
  return row.id;
}
