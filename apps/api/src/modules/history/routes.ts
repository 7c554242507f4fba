import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummarySchema } from '@strongroom/contracts/dashboard.ts';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { transactionListQuerySchema, transactionListSchema } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { dashboardSummary, listTransactions } from './service.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

export function historyRoutes(db: Database, config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get('/transactions', { schema: { tags: ['history'], querystring: transactionListQuerySchema, response: { 200: transactionListSchema, ...errors } } }, async (request) =>
      listTransactions(db, customerIdOf(request), request.query),
    );
    app.get('/dashboard', { schema: { tags: ['history'], response: { 200: dashboardSummarySchema, ...errors } } }, async (request) => dashboardSummary(db, config, customerIdOf(request)));
  };
}
