import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxListSchema, outboxQuerySchema } from '@strongroom/contracts/outbox.ts';
import type { Queryable } from '../../db/database.ts';
import { outboxMessages } from './service.ts';

/** Sandbox only (app.ts registers it only then): the mail and SMS the bank "sent". */
export function devRoutes(db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/dev/outbox', { schema: { tags: ['sandbox'], querystring: outboxQuerySchema, response: { 200: outboxListSchema } } }, async (request) =>
      outboxMessages(db, request.query.to, request.query.limit),
    );
  };
}
