import { notificationPageSize, type Notification, type NotificationList } from '@strongroom/contracts/notifications.ts';
import type { Queryable } from '../../db/database.ts';
import { notFound } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { countUnreadNotifications, listNotifications, markAllNotificationsRead, softDeleteNotification } from './repository.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** The customer's notifications page: the latest ones and how many are unread. */
export async function notificationList(db: Queryable, customerId: string): Promise<NotificationList> {
  const [items, unreadCount] = await Promise.all([recentNotifications(db, customerId, notificationPageSize), countUnreadNotifications(db, customerId)]);
  return { items, unreadCount };
}

/** Marks every notification of the customer read; their other open pages update their badge. */
export async function markNotificationsRead(db: Queryable, liveEvents: LiveEvents, customerId: string): Promise<void> {
  if ((await markAllNotificationsRead(db, customerId)) > 0) liveEvents.publish(customerId, 'notifications');
}

/** Deletes the customer's notification `id`; a malformed, unknown or another customer's id is not found. */
export async function deleteNotification(db: Queryable, liveEvents: LiveEvents, customerId: string, id: string): Promise<void> {
  if (!uuidPattern.test(id) || !(await softDeleteNotification(db, customerId, id))) throw notFound('This notification does not exist');
  liveEvents.publish(customerId, 'notifications');
}
