import type { NotificationKind } from '@strongroom/contracts/notifications.ts';
import type { Queryable } from '../db/database.ts';

/**
 * Writes one notification for a customer. Call it inside the transaction that makes the event
 * true (a payment settling, an identity decision), so there is never a notification without its
 * event or an event without its notification; publish the 'notifications' live event after commit.
 */
export interface NewNotification {
  customerId: string;
  kind: NotificationKind;
  name: string;
  text: string;
  link?: string | null;
  paymentId?: string | null;
}

export async function notifyCustomer(db: Queryable, notification: NewNotification): Promise<void> {
  await db.query(
    `INSERT INTO notifications (customer_id, kind, name, text, link, payment_id) VALUES ($1, $2, $3, $4, $5, $6)`,
    [notification.customerId, notification.kind, notification.name, notification.text, notification.link ?? null, notification.paymentId ?? null],
    { name: 'notifications_insert' },
  );
}
