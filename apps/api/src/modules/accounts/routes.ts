import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountListSchema } from '@strongroom/contracts/accounts.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { centsToJson } from '../../platform/money.ts';
import { findCustomerById } from '../customers/service.ts';
import { accountsWithBalances } from './service.ts';

export function accountRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get('/accounts', { schema: { tags: ['accounts'], response: { 200: accountListSchema, ...errorResponses(401) } } }, async (request) => {
      const customerId = customerIdOf(request);
      const customer = await findCustomerById(db, customerId);
      const accounts = await accountsWithBalances(db, customerId, customer?.identity_status === 'approved');
      return accounts.map((account) => ({
        ...account,
        balanceCents: centsToJson(account.balanceCents),
        availableCents: centsToJson(account.availableCents),
        pendingDepositsCents: centsToJson(account.pendingDepositsCents),
        pendingDepositsAvailableAt: account.pendingDepositsAvailableAt?.toISOString() ?? null,
      }));
    });
  };
}
