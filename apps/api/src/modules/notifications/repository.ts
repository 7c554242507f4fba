import type { NotificationKind } from '@strongroom/contracts/notifications.ts';
import type { Queryable } from '../../db/database.ts';

export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  name: string;
  text: string;
  link: string | null;
  created_at: Date;
  read_at: Date | null;
}

export async function listNotifications(db: Queryable, customerId: string, limit: number): Promise<NotificationRow[]> {
  return db.query<NotificationRow>(
    `SELECT id, kind, name, text, link, created_at, read_at FROM notifications
      WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`,
    [customerId, limit],
  );
}

export async function countUnreadNotifications(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM notifications WHERE customer_id = $1 AND deleted_at IS NULL AND read_at IS NULL',
    [customerId],
  );
  return row?.count ?? 0;
}

/** Marks every unread notification of the customer read; answers how many changed. */
export async function markAllNotificationsRead(db: Queryable, customerId: string): Promise<number> {
  const rows = await db.query('UPDATE notifications SET read_at = now() WHERE customer_id = $1 AND deleted_at IS NULL AND read_at IS NULL RETURNING 1', [
    customerId,
  ]);
  return rows.length;
}

export async function softDeleteNotification(db: Queryable, customerId: string, id: string): Promise<boolean> {
  const rows = await db.query('UPDATE notifications SET deleted_at = now() WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING 1', [
    id,
    customerId,
  ]);
  return rows.length === 1;
}
