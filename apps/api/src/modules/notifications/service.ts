import type { Notification } from '@strongroom/contracts/notifications.ts';
import type { Queryable } from '../../db/database.ts';
import { listNotifications } from './repository.ts';

/** What other modules may read of a customer's notifications: the latest, as the customer sees them. */
export async function recentNotifications(db: Queryable, customerId: string, limit: number): Promise<Notification[]> {
  const rows = await listNotifications(db, customerId, limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    text: row.text,
    createdAt: row.created_at.toISOString(),
    read: row.read_at !== null,
    link: row.link,
  }));
}
