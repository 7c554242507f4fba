import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { preferencesSchema, type Preferences } from '@strongroom/contracts/profile.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { preferencesOf, savePreferencesOf } from './service.ts';

/** Settings' More Options switches (D12): read with their defaults, saved whole. */
export function preferencesRoutes(dependencies: { db: Database }): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get('/me/preferences', { schema: { tags: ['profile'], response: { 200: preferencesSchema, ...errorResponses(401) } } }, async (request) =>
      preferencesOf(db, customerIdOf(request)),
    );

    app.put(
      '/me/preferences',
      {
        schema: {
          tags: ['profile'],
          body: preferencesSchema,
          response: { 200: preferencesSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request): Promise<Preferences> => savePreferencesOf(db, customerActorOf(request), request.body),
    );
  };
}
