import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { meResponseSchema } from '@strongroom/contracts/session.ts';
import type { Queryable } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';

/** Routes for a signed-in customer's own identity. */
export function meRoutes(db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/me',
      { schema: { tags: ['auth'], response: { 200: meResponseSchema, 401: errorResponseSchema } } },
      async (request) => ({ user: { id: customerIdOf(request) } }),
    );
  };
}
