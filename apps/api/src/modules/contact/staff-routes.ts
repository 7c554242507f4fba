import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import {
  staffMessageListQuerySchema,
  staffMessageListSchema,
  staffReplyRequestSchema,
  staffReplyResponseSchema,
  type StaffMessage,
} from '@strongroom/contracts/staff-messages.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffAudit, staffOf } from '../../platform/staff-auth.ts';
import {
  findStaffMessage,
  insertContactReply,
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
}

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

function presentMessage(row: StaffMessageRow, replies: readonly MessageReplyRow[]): StaffMessage {
  return {
    id: row.id,
    source: 'contact_form',
    name: row.name,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    text: row.message,
    status: row.answered_at ? 'answered' : 'open',
    receivedAt: row.created_at.toISOString(),
    answeredAt: row.answered_at?.toISOString() ?? null,
    replies: replies
      .filter((reply) => reply.contact_message_id === row.id)
      .map((reply) => ({ id: reply.id, text: reply.text, staffId: reply.staff_id, staffEmail: reply.staff_email, createdAt: reply.created_at.toISOString() })),
  };
}

/**
 * The messages queue (issue 12, `messages.reply`). A reply is stored, marks the message answered
 * and goes to the visitor as a plain-text email. Replying to an answered message is a follow-up:
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
        const replies = await repliesTo(
          db,
          page.map((row) => row.id),
        );
        const last = page.at(-1);
        return {
          items: page.map((row) => presentMessage(row, replies)),
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
          const message = isUuid(id) ? await findStaffMessage(tx, id, { forUpdate: true }) : undefined;
          if (!message) return undefined;
          const replyId = await insertContactReply(tx, { contactMessageId: message.id, staffId: staff.id, text: request.body.text });
          return { message, replyId, followUp: message.answered_at !== null };
        });
        if (!replied) throw new AppError('not_found', 'No such message');
        await dependencies.mailer.send({
          to: replied.message.email,
          subject: `Re: ${replied.message.subject}`,
          text: [`Hello ${replied.message.name},`, '', request.body.text, '', dependencies.bankName].join('\n'),
        });
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'messages.reply',
            subject: replied.message.id,
            outcome: 'success',
            details: { replyId: replied.replyId, followUp: replied.followUp, length: request.body.text.length },
          }),
        );
        const message = await findStaffMessage(db, replied.message.id);
        if (!message) throw new Error('the message replied to vanished');
        return { message: presentMessage(message, await repliesTo(db, [message.id])) };
      },
    );
  };
}
