import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notMeResponseSchema, securityEventListQuerySchema, securityEventListSchema } from '@strongroom/contracts/security-events.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { clearSessionCookies } from '../../platform/session.ts';
import { reportNotMe, securityEventPage, type SecurityEventDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/** `GET /me/security-events`, `POST /me/security-events/{id}/not-me` (contracts/security-events.ts). */
export function securityEventRoutes(dependencies: SecurityEventDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get(
      '/me/security-events',
      { schema: { tags: ['security'], querystring: securityEventListQuerySchema, response: { 200: securityEventListSchema, ...errors } } },
      async (request) => securityEventPage(db, customerIdOf(request), request.query.cursor),
    );

    app.post(
      '/me/security-events/:id/not-me',
      { schema: { tags: ['security'], params: idParams, body: z.unknown().optional(), response: { 200: notMeResponseSchema, ...errors } } },
      async (request, reply) => {
        const report = await reportNotMe(dependencies, customerActorOf(request), request.params.id);
        // Every session ended, this one too: the browser forgets its cookies now.
        if (!report.alreadyReported) clearSessionCookies(request, reply);
        return { report };
      },
    );
  };
}
