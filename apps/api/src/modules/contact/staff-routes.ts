import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  staffMessageListQuerySchema,
  staffMessageListSchema,
  staffReplyRequestSchema,
  staffReplyResponseSchema,
} from '@strongroom/contracts/staff-messages.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { messageQueuePage, replyToMessage, type MessageStaffDependencies } from './staff-service.ts';

const errors = errorResponses(400, 401, 403, 404);

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
      async (request) => messageQueuePage(db, request.query.status, request.query.cursor),
    );

    app.post(
      '/staff/messages/:id/reply',
      { ...guarded, schema: { tags: ['staff'], params: idParams, body: staffReplyRequestSchema, response: { 200: staffReplyResponseSchema, ...errors } } },
      async (request) => ({ message: await replyToMessage(dependencies, staffActorOf(request), request.params.id, request.body.text) }),
    );
  };
}
