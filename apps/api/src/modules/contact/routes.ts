import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactMessageRequestSchema, contactMessageResponseSchema } from '@strongroom/contracts/contact.ts';
import type { Database } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { submitContactMessage } from './service.ts';

/** Enough for a person who writes again to add something; too few to flood the staff inbox. */
export const contactMessagesPerHourPerAddress = 5;
const contactSuccessMessage = 'Thank you. Your message reached us, and we reply within 24 hours.';

export function contactRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/contact',
      {
        config: { rateLimit: { max: contactMessagesPerHourPerAddress, timeWindow: '1 hour' } },
        schema: {
          tags: ['contact'],
          body: contactMessageRequestSchema,
          response: { 201: contactMessageResponseSchema, ...errorResponses(400, 429) },
        },
      },
      async (request, reply) => {
        await submitContactMessage(db, request.body, request.ip);
        return reply.status(201).send({ message: contactSuccessMessage });
      },
    );
  };
}
