import type { Queryable } from '../../db/database.ts';
import { keysetWalk, type KeysetPosition } from '../../platform/keyset-cursor.ts';

/** The SQL of secure messages (migration 0020): threads, the customer's posts, staff replies. */
export interface ThreadRow {
  id: string;
  customer_id: string;
  subject: string;
  created_at: Date;
  last_activity_at: Date;
  answered_at: Date | null;
  reported_event_id: string | null;
  sort_text: string;
}

export interface EntryRow {
  id: string;
  thread_id: string;
  author: 'customer' | 'staff';
  text: string;
  staff_id: string | null;
  staff_email: string | null;
  created_at: Date;
}

const threadColumns =
  'id, customer_id, subject, created_at, last_activity_at, answered_at, reported_event_id::text AS reported_event_id, last_activity_at::text AS sort_text';

export async function insertThread(
  db: Queryable,
  thread: { customerId: string; subject: string; text: string; reportedEventId?: string | null },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO secure_message_threads (customer_id, subject, reported_event_id) VALUES ($1, $2, $3::bigint) RETURNING id`,
    [thread.customerId, thread.subject, thread.reportedEventId ?? null],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  await db.query('INSERT INTO secure_message_posts (thread_id, text) VALUES ($1, $2)', [row.id, thread.text]);
  return row.id;
}

/** The customer's follow-up: the thread waits for support again (since now, if it had been answered). */
export async function insertPost(db: Queryable, threadId: string, text: string): Promise<void> {
  await db.query('INSERT INTO secure_message_posts (thread_id, text) VALUES ($1, $2)', [threadId, text]);
  await db.query(
    `UPDATE secure_message_threads
        SET last_activity_at = now(), waiting_since = CASE WHEN answered_at IS NULL THEN waiting_since ELSE now() END,
            answered_at = NULL, answered_by = NULL
      WHERE id = $1`,
    [threadId],
  );
}

/** A staff answer: stored with the other staff replies, and the thread is answered. */
export async function insertStaffReply(db: Queryable, reply: { threadId: string; staffId: string; text: string }): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO message_replies (source, secure_message_thread_id, staff_id, text) VALUES ('secure_message', $1, $2, $3) RETURNING id`,
    [reply.threadId, reply.staffId, reply.text],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  await db.query('UPDATE secure_message_threads SET answered_at = now(), answered_by = $2, last_activity_at = now() WHERE id = $1', [
    reply.threadId,
    reply.staffId,
  ]);
  return row.id;
}

/** One thread of this customer's (undefined for anyone else's: the caller answers 404). */
export async function findThread(
  db: Queryable,
  threadId: string,
  customerId: string | null,
  options: { forUpdate?: boolean } = {},
): Promise<ThreadRow | undefined> {
  const [row] = await db.query<ThreadRow>(
    `SELECT ${threadColumns} FROM secure_message_threads WHERE id = $1 AND ($2::uuid IS NULL OR customer_id = $2::uuid)${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [threadId, customerId],
  );
  return row;
}

/** The customer's threads, last activity first, one more than `limit` to tell a next page. */
export async function listThreads(db: Queryable, customerId: string, after: KeysetPosition | undefined, limit: number): Promise<ThreadRow[]> {
  const parameters: unknown[] = [customerId, limit + 1];
  const { keyset, orderBy } = keysetWalk({ at: 'last_activity_at', id: 'id' }, 'DESC', after, parameters);
  return db.query<ThreadRow>(`SELECT ${threadColumns} FROM secure_message_threads WHERE customer_id = $1 ${keyset} ORDER BY ${orderBy} LIMIT $2`, parameters);
}

/** Every thread of the customer's, for the export. */
export async function allThreads(db: Queryable, customerId: string): Promise<ThreadRow[]> {
  return db.query<ThreadRow>(`SELECT ${threadColumns} FROM secure_message_threads WHERE customer_id = $1 ORDER BY last_activity_at DESC, id DESC`, [
    customerId,
  ]);
}

/** Both sides of the given threads, oldest first. */
export async function entriesOf(db: Queryable, threadIds: readonly string[]): Promise<EntryRow[]> {
  if (threadIds.length === 0) return [];
  return db.query<EntryRow>(
    `SELECT id, thread_id, author, text, staff_id, staff_email, created_at FROM (
       SELECT p.id, p.thread_id, 'customer' AS author, p.text, NULL::uuid AS staff_id, NULL::text AS staff_email, p.created_at
         FROM secure_message_posts p WHERE p.thread_id = ANY($1::uuid[])
       UNION ALL
       SELECT r.id, r.secure_message_thread_id, 'staff', r.text, r.staff_id, s.email, r.created_at
         FROM message_replies r JOIN staff s ON s.id = r.staff_id WHERE r.secure_message_thread_id = ANY($1::uuid[])
     ) entries ORDER BY created_at, id`,
    [threadIds],
  );
}
