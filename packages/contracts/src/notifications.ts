import { z } from 'zod';

export const notificationKindSchema = z.enum([
  'money_in',
  'money_out',
  'held',
  'released',
  'rejected',
  'returned',
  'identity_approved',
  'identity_rejected',
  'new_sign_in',
  /** An account at another bank was linked, verified or could not be verified. */
  'funding_source',
  /** A returned deposit took an account below zero. */
  'account_overdrawn',
  /** Staff froze the account (no money moves) or lifted the freeze. */
  'account_frozen',
  'account_unfrozen',
  /** A loan decided, paid out, an instalment paid late or missed, a loan paid off. */
  'loan',
  /** A referred friend's identity was approved and the $10.00 bonus was paid (issue 15). */
  'referral',
  /** Support answered one of the customer's secure messages. */
  'secure_message',
  /** Staff corrected the customer's email, phone or postal address (issue 39 item 7). */
  'contact_details',
  /** A monthly account statement is ready to download (issue 32 item 6). */
  'statement',
  /** A scheduled payment was sent, will be tried again, was skipped or failed (issue 33 item 5). */
  'scheduled_payment',
  /** A dispute was received, credited, asked about, decided or withdrawn (issue 34). */
  'dispute',
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** The seed's notification card: name (a title), text and date, plus whether it has been read. */
export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  name: z.string(),
  text: z.string(),
  createdAt: z.iso.datetime(),
  read: z.boolean(),
  /** A screen of this app to open for more, such as /transaction-history; null when there is none. */
  link: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /notifications` -> newest first, at most `notificationPageSize`; `unreadCount` for the badge. */
export const notificationPageSize = 100;
export const notificationListSchema = z.object({ items: z.array(notificationSchema), unreadCount: z.number().int().min(0) });
export type NotificationList = z.infer<typeof notificationListSchema>;

/** `POST /notifications/read` marks them all read (204); `DELETE /notifications/{id}` deletes one (204). */

/**
 * `GET /events` is a server-sent event stream for the signed-in customer. Each event's `data` is
 * one of these topics: the web refetches what the topic names.
 */
export const liveEventTopicSchema = z.enum(['accounts', 'notifications']);
export type LiveEventTopic = z.infer<typeof liveEventTopicSchema>;
