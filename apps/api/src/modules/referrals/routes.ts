import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { referralListSchema, referralResponseSchema } from '@strongroom/contracts/referrals.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { referralListOf, referralOf } from './service.ts';

/** Invite: the customer's own referral code and link, and the referrals it brought. */
export function referralRoutes(dependencies: { db: Database; config: Pick<Config, 'publicUrl'> }): FastifyPluginAsyncZod {
  const { db, config } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get('/me/referral', { schema: { tags: ['referrals'], response: { 200: referralResponseSchema, ...errorResponses(401) } } }, async (request) =>
      referralOf(db, config.publicUrl, customerIdOf(request)),
    );

    app.get('/me/referrals', { schema: { tags: ['referrals'], response: { 200: referralListSchema, ...errorResponses(401) } } }, async (request) =>
      referralListOf(db, customerIdOf(request)),
    );
  };
}
