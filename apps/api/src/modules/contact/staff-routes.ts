import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import {
  staffMessageListQuerySchema,
  staffMessageListSchema,
  staffReplyRequestSchema,
  staffReplyResponseSchema,
  type StaffMessage,
} from '@strongroom/contracts/staff-messages.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffAudit, staffOf } from '../../platform/staff-auth.ts';
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

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

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

/**
 * The messages queue (issues 12 and 15, `messages.reply`). A reply to a contact-form message is
 * stored, marks it answered and goes to the visitor as a plain-text email; a reply to a secure
 * message stays in the bank: it joins the thread and reaches the customer as a live notification. Replying to an answered message is a follow-up:
 * allowed, each reply kept and mailed, so a second thought never needs a workaround.
 */
export function messageStaffRoutes(dependencies: MessageStaffDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'messages.reply') };

    app.get(
      '/staff/messages',
      { ...guarded, schema: { tags: ['staff'], querystring: staffMessageListQuerySchema, response: { 200: staffMessageListSchema, ...errors } } },
      async (request) => {
        const { rows, total } = await listStaffMessages(db, request.query.status, decodeCursor(request.query.cursor));
        const page = rows.slice(0, messageQueuePageSize);
        const last = page.at(-1);
        return {
          items: await presentMessages(db, page),
          nextCursor: rows.length > messageQueuePageSize && last ? encodeCursor({ at: last.sort_text, id: last.id }) : null,
          total,
        };
      },
    );

    app.post(
      '/staff/messages/:id/reply',
      { ...guarded, schema: { tags: ['staff'], params: idParams, body: staffReplyRequestSchema, response: { 200: staffReplyResponseSchema, ...errors } } },
      async (request) => {
        const staff = staffOf(request);
        const id = request.params.id;
        const replied = await db.transaction(async (tx) => {
          if (!isUuid(id)) return undefined;
          const contact = await lockContactMessage(tx, id);
          if (contact) {
            const replyId = await insertContactReply(tx, { contactMessageId: contact.id, staffId: staff.id, text: request.body.text });
            return { source: 'contact_form' as const, replyId, followUp: contact.answered_at !== null };
          }
          const thread = await findSecureThreadForStaff(tx, id, { forUpdate: true });
          if (!thread) return undefined;
          const answer = await answerThread(tx, thread, staff.id, request.body.text);
          await recordAudit(
            tx,
            staffAudit(request, {
              action: 'messages.reply',
              subject: thread.id,
              outcome: 'success',
              details: { source: 'secure_message', replyId: answer.replyId, followUp: answer.followUp, length: request.body.text.length },
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
            text: [`Hello ${message.name},`, '', request.body.text, '', dependencies.bankName].join('\n'),
          });
          await recordAudit(
            db,
            staffAudit(request, {
              action: 'messages.reply',
              subject: message.id,
              outcome: 'success',
              details: { replyId: replied.replyId, followUp: replied.followUp, length: request.body.text.length },
            }),
          );
        }
        const [presented] = await presentMessages(db, [message]);
        if (!presented) throw new Error('the message replied to vanished');
        return { message: presented };
      },
    );
  };
}
