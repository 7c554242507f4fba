import type { StaffMessage, StaffMessageList, StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, keysetPage } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { answerThread, findSecureThreadForStaff, publishAnswer, secureThreadEntries } from '../secure-messages/service.ts';
import type { SecureThreadEntryRow } from '../secure-messages/service.ts';
import {
  findStaffMessage,
  insertContactReply,
  lockContactMessage,
  listStaffMessages,
  messageQueuePageSize,
  repliesTo,
  type MessageReplyRow,
  type StaffMessageRow,
} from './staff-repository.ts';

export interface MessageStaffDependencies {
  db: Database;
  mailer: Mailer;
  bankName: string;
  liveEvents: LiveEvents;
}

function presentMessage(row: StaffMessageRow, replies: readonly MessageReplyRow[], threadEntries: readonly SecureThreadEntryRow[]): StaffMessage {
  const contactReplies = replies.filter((reply) => reply.contact_message_id === row.id);
  const staffReplies =
    row.source === 'contact_form'
      ? contactReplies.map((reply) => ({ id: reply.id, text: reply.text, staffId: reply.staff_id, staffEmail: reply.staff_email, createdAt: reply.created_at }))
      : threadEntries
          .filter((entry) => entry.thread_id === row.id && entry.author === 'staff')
          .map((entry) => ({
            id: entry.id,
            text: entry.text,
            staffId: entry.staff_id ?? '',
            staffEmail: entry.staff_email ?? '',
            createdAt: entry.created_at,
          }));
  const conversation =
    row.source === 'contact_form'
      ? [
          { id: row.id, author: 'customer' as const, text: row.message, staffEmail: null, createdAt: row.created_at.toISOString() },
          ...staffReplies.map((reply) => ({
            id: reply.id,
            author: 'staff' as const,
            text: reply.text,
            staffEmail: reply.staffEmail,
            createdAt: reply.createdAt.toISOString(),
          })),
        ]
      : threadEntries
          .filter((entry) => entry.thread_id === row.id)
          .map((entry) => ({ id: entry.id, author: entry.author, text: entry.text, staffEmail: entry.staff_email, createdAt: entry.created_at.toISOString() }));
  return {
    id: row.id,
    source: row.source,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    text: row.message,
    status: row.answered_at ? 'answered' : 'open',
    receivedAt: row.created_at.toISOString(),
    answeredAt: row.answered_at?.toISOString() ?? null,
    replies: staffReplies.map((reply) => ({ ...reply, createdAt: reply.createdAt.toISOString() })),
    conversation,
  };
}

async function presentMessages(db: Queryable, rows: readonly StaffMessageRow[]): Promise<StaffMessage[]> {
  const replies = await repliesTo(
    db,
    rows.filter((row) => row.source === 'contact_form').map((row) => row.id),
  );
  const entries = await secureThreadEntries(
    db,
    rows.filter((row) => row.source === 'secure_message').map((row) => row.id),
  );
  return rows.map((row) => presentMessage(row, replies, entries));
}

/** One page of the messages queue in `status`, after the position `cursor` names. */
export async function messageQueuePage(db: Database, status: StaffMessageStatus, cursor: string | undefined): Promise<StaffMessageList> {
  const { rows, total } = await listStaffMessages(db, status, decodeCursor(cursor));
  const { page, nextCursor } = keysetPage(rows, messageQueuePageSize);
  return { items: await presentMessages(db, page), nextCursor, total };
}

/**
 * A staff member's reply to message `id` (a contact-form message or a secure thread), audited;
 * a contact-form reply is mailed to the visitor, a thread's answer published to the customer.
 */
export async function replyToMessage(dependencies: MessageStaffDependencies, actor: StaffActor, id: string, text: string): Promise<StaffMessage> {
  const { db } = dependencies;
  const replied = await db.transaction(async (tx) => {
    if (!isUuid(id)) return undefined;
    const contact = await lockContactMessage(tx, id);
    if (contact) {
      const replyId = await insertContactReply(tx, { contactMessageId: contact.id, staffId: actor.staffId, text });
      return { source: 'contact_form' as const, replyId, followUp: contact.answered_at !== null };
    }
    const thread = await findSecureThreadForStaff(tx, id, { forUpdate: true });
    if (!thread) return undefined;
    const answer = await answerThread(tx, thread, actor.staffId, text);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'messages.reply',
        subject: thread.id,
        outcome: 'success',
        details: { source: 'secure_message', replyId: answer.replyId, followUp: answer.followUp, length: text.length },
      }),
    );
    return { source: 'secure_message' as const, replyId: answer.replyId, followUp: answer.followUp, answer };
  });
  if (!replied) throw new AppError('not_found', 'No such message');
  const message = await findStaffMessage(db, id);
  if (!message) throw new Error('the message replied to vanished');
  if (replied.source === 'secure_message') {
    publishAnswer(dependencies.liveEvents, replied.answer);
  } else {
    await dependencies.mailer.send({
      to: message.email,
      subject: `Re: ${message.subject}`,
      text: [`Hello ${message.name},`, '', text, '', dependencies.bankName].join('\n'),
    });
    await recordAudit(
      db,
      auditEntryOf(actor, {
        action: 'messages.reply',
        subject: message.id,
        outcome: 'success',
        details: { replyId: replied.replyId, followUp: replied.followUp, length: text.length },
      }),
    );
  }
  const [presented] = await presentMessages(db, [message]);
  if (!presented) throw new Error('the message replied to vanished');
  return presented;
}
