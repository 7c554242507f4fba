import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billerListQuerySchema, billerListSchema } from '@strongroom/contracts/billers.ts';
import type { Database } from '../../db/database.ts';
import { requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerBillers } from './service.ts';

/** `GET /billers?category=` (issue 33 item 1): the billers a signed-in customer may pay from a Bill Pay tile. */
export function billerRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);

    app.get(
      '/billers',
      { schema: { tags: ['billers'], querystring: billerListQuerySchema, response: { 200: billerListSchema, ...errorResponses(400, 401) } } },
      async (request) => ({ items: await customerBillers(db, request.query.category) }),
    );
  };
}
