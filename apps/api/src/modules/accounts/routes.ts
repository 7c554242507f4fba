import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountListSchema } from '@strongroom/contracts/accounts.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { centsToJson } from '../../platform/money.ts';
import { accountsWithEarnings } from './service.ts';

export function accountRoutes(db: Database, config: Pick<Config, 'bankTimeZone'>, clock?: Clock): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get('/accounts', { schema: { tags: ['accounts'], response: { 200: accountListSchema, ...errorResponses(401) } } }, async (request) => {
      const customerId = customerIdOf(request);
      // Whether the customer's identity is approved is read with the accounts (accountsWithBalances).
      const accounts = await accountsWithEarnings(db, config, customerId, undefined, clock);
      return accounts.map((account) => ({
        ...account,
        balanceCents: centsToJson(account.balanceCents),
        availableCents: centsToJson(account.availableCents),
        pendingDepositsCents: centsToJson(account.pendingDepositsCents),
        pendingDepositsAvailableAt: account.pendingDepositsAvailableAt?.toISOString() ?? null,
        interestThisMonthCents: centsToJson(account.interestThisMonthCents),
        interestThisYearCents: centsToJson(account.interestThisYearCents),
      }));
    });
  };
}
