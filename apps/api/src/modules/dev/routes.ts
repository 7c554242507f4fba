import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxListSchema, outboxQuerySchema } from '@strongroom/contracts/outbox.ts';
import type { Queryable } from '../../db/database.ts';
import { listOutboxMessages } from '../../platform/messaging/outbox-repository.ts';

/** Sandbox only (app.ts registers it only then): the mail and SMS the bank "sent". */
export function devRoutes(db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/dev/outbox', { schema: { tags: ['sandbox'], querystring: outboxQuerySchema, response: { 200: outboxListSchema } } }, async (request) => {
      const rows = await listOutboxMessages(db, request.query.to, request.query.limit);
      return {
        items: rows.map((row) => ({
          id: row.id,
          channel: row.channel,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          createdAt: row.created_at.toISOString(),
        })),
      };
    });
  };
}
