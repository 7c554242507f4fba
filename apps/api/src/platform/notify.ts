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

export function notifyCustomer(db: Queryable, notification: NewNotification): Promise<void> {
  return notifyCustomers(db, [notification]);
}

/** Several notifications in one statement, in the order given (a group of payments writes its own together). */
export async function notifyCustomers(db: Queryable, notifications: readonly NewNotification[]): Promise<void> {
  if (notifications.length === 0) return;
  await db.query(
    `INSERT INTO notifications (customer_id, kind, name, text, link, payment_id)
     SELECT customer_id, kind, name, text, link, payment_id
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::uuid[]) WITH ORDINALITY
            AS n (customer_id, kind, name, text, link, payment_id, position)
      ORDER BY position`,
    [
      notifications.map((n) => n.customerId),
      notifications.map((n) => n.kind),
      notifications.map((n) => n.name),
      notifications.map((n) => n.text),
      notifications.map((n) => n.link ?? null),
      notifications.map((n) => n.paymentId ?? null),
    ],
    { name: 'notifications_insert_many' },
  );
}
