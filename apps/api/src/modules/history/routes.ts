import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummarySchema } from '@strongroom/contracts/dashboard.ts';
import { lineIdParamsSchema, transactionDetailSchema, transactionListQuerySchema, transactionListSchema } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { readOnReplicaFor } from '../../platform/read-your-writes.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { dashboardSummary, listTransactions, transactionDetail } from './service.ts';

const errors = errorResponses(400, 401, 404);
export function historyRoutes(db: Database, config: Config, clock?: Clock): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/transactions',
      { schema: { tags: ['history'], querystring: transactionListQuerySchema, response: { 200: transactionListSchema, ...errors } } },
      // History pages and search may read a replica that has the customer's own last write (docs/deploy.md).
      async (request) => readOnReplicaFor(request, db, (reader) => listTransactions(reader, customerIdOf(request), request.query, config.bankTimeZone)),
    );
    app.get(
      '/transactions/:id',
      {
        schema: {
          tags: ['history'],
          description: 'id is a line id: {transferId}:in or {transferId}:out',
          params: lineIdParamsSchema,
          response: { 200: transactionDetailSchema, ...errors },
        },
      },
      async (request) => transactionDetail(db, config, customerActorOf(request), request.params.id),
    );
    app.get('/dashboard', { schema: { tags: ['history'], response: { 200: dashboardSummarySchema, ...errors } } }, async (request) =>
      dashboardSummary(db, config, customerIdOf(request), clock),
    );
  };
}
