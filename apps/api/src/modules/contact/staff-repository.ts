import type { Queryable } from '../../db/database.ts';
import type { StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import { keysetWalk, type KeysetPosition } from '../../platform/keyset-cursor.ts';

/**
 * The messages queue's SQL (issues 12 and 15): contact-form messages and customers' secure message
 * threads (migration 0020) in one list, and the staff replies to the contact form.
 */
export interface StaffMessageRow {
  source: 'contact_form' | 'secure_message';
  id: string;
  customer_id: string | null;
  name: string;
  email: string;
  phone: string | null;
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

/**
 * Both sources as one relation. `waiting_since` orders the open list (a contact message waits from
 * its arrival; a thread from its first unanswered post); `message` is a thread's first post.
 */
const queueSql = `(
  SELECT 'contact_form' AS source, id, NULL::uuid AS customer_id, name, email, phone, subject, message,
         created_at, answered_at, created_at AS waiting_since
    FROM contact_messages
  UNION ALL
  SELECT 'secure_message', t.id, t.customer_id, c.first_name || ' ' || c.last_name, c.email, c.phone_e164, t.subject,
         (SELECT p.text FROM secure_message_posts p WHERE p.thread_id = t.id ORDER BY p.created_at, p.id LIMIT 1),
         t.created_at, t.answered_at, t.waiting_since
    FROM secure_message_threads t JOIN customers c ON c.id = t.customer_id
) queue`;

const columns = 'source, id, customer_id, name, email, phone, subject, message, created_at, answered_at';

/** Open messages oldest first (the longest wait on top); answered ones newest answer first. */
export async function listStaffMessages(
  db: Queryable,
  status: StaffMessageStatus,
  after: KeysetPosition | undefined,
): Promise<{ rows: StaffMessageRow[]; total: number }> {
  const open = status === 'open';
  const sortColumn = open ? 'waiting_since' : 'answered_at';
  const filter = open ? 'answered_at IS NULL' : 'answered_at IS NOT NULL';
  const parameters: unknown[] = [messageQueuePageSize + 1];
  const { keyset, orderBy } = keysetWalk({ at: sortColumn, id: 'id' }, open ? 'ASC' : 'DESC', after, parameters);
  const rows = await db.query<StaffMessageRow>(
    `SELECT ${columns}, ${sortColumn}::text AS sort_text
      FROM ${queueSql} WHERE ${filter} ${keyset} ORDER BY ${orderBy} LIMIT $1`,
    parameters,
  );
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::integer AS total FROM ${queueSql} WHERE ${filter}`);
  return { rows, total: count?.total ?? 0 };
}

/** A message of either source by id (the ids are uuids: one source's never matches the other's). */
export async function findStaffMessage(db: Queryable, id: string): Promise<StaffMessageRow | undefined> {
  const [row] = await db.query<StaffMessageRow>(`SELECT ${columns}, created_at::text AS sort_text FROM ${queueSql} WHERE id = $1`, [id]);
  return row;
}

/** A contact-form message, locked for a reply. */
export async function lockContactMessage(db: Queryable, id: string): Promise<{ id: string; answered_at: Date | null } | undefined> {
  const [row] = await db.query<{ id: string; answered_at: Date | null }>('SELECT id, answered_at FROM contact_messages WHERE id = $1 FOR UPDATE', [id]);
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
