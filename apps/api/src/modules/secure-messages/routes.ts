import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  newSecureMessageRequestSchema,
  secureMessageFollowUpRequestSchema,
  secureMessageListQuerySchema,
  secureMessageListSchema,
  secureMessageThreadResponseSchema,
} from '@strongroom/contracts/secure-messages.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerTries } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { addFollowUp, listSecureMessages, secureMessageThread, sendSecureMessage } from './service.ts';

/** Messages one customer may write in an hour: far above a conversation, well below a flood. */
export const secureMessagesPerHour = 60;

const errors = errorResponses(400, 401, 403, 404, 429);

/** `GET|POST /messages`, `GET /messages/{id}`, `POST /messages/{id}/replies` (contracts/secure-messages.ts). */
export function secureMessageRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    // Per customer, so it runs once the session is known (a preHandler after requireCustomer's).
    const writeLimit = perCustomerTries(
      app,
      'secure-messages',
      { max: secureMessagesPerHour, timeWindow: '1 hour' },
      'You have sent many messages in the last hour. Please wait before sending another.',
    );

    app.get(
      '/messages',
      { schema: { tags: ['messages'], querystring: secureMessageListQuerySchema, response: { 200: secureMessageListSchema, ...errors } } },
      async (request) => listSecureMessages(db, customerIdOf(request), request.query.cursor),
    );

    app.post(
      '/messages',
      {
        preHandler: writeLimit,
        schema: { tags: ['messages'], body: newSecureMessageRequestSchema, response: { 201: secureMessageThreadResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const thread = await sendSecureMessage(db, customerActorOf(request), request.body);
        return reply.status(201).send({ thread });
      },
    );

    app.get(
      '/messages/:id',
      { schema: { tags: ['messages'], params: idParams, response: { 200: secureMessageThreadResponseSchema, ...errors } } },
      async (request) => ({ thread: await secureMessageThread(db, customerIdOf(request), request.params.id) }),
    );

    app.post(
      '/messages/:id/replies',
      {
        preHandler: writeLimit,
        schema: {
          tags: ['messages'],
          params: idParams,
          body: secureMessageFollowUpRequestSchema,
          response: { 201: secureMessageThreadResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const thread = await addFollowUp(db, customerActorOf(request), request.params.id, request.body.text);
        return reply.status(201).send({ thread });
      },
    );
  };
}
