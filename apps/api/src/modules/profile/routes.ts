import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { defaultPreferences, preferencesSchema, type Preferences } from '@strongroom/contracts/profile.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { findPreferences, savePreferences } from './repository.ts';

/** Settings' More Options switches (D12): read with their defaults, saved whole. */
export function preferencesRoutes(dependencies: { db: Database }): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get('/me/preferences', { schema: { tags: ['profile'], response: { 200: preferencesSchema, 401: errorResponseSchema } } }, async (request) => {
      return (await findPreferences(db, customerIdOf(request))) ?? defaultPreferences;
    });

    app.put(
      '/me/preferences',
      {
        schema: {
          tags: ['profile'],
          body: preferencesSchema,
          response: { 200: preferencesSchema, 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
        },
      },
      async (request): Promise<Preferences> => {
        const customerId = customerIdOf(request);
        await savePreferences(db, customerId, request.body);
        await recordAudit(db, {
          actorType: 'customer',
          actorId: customerId,
          action: 'profile.preferences_saved',
          outcome: 'success',
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          requestId: request.id,
          details: { ...request.body },
        });
        return request.body;
      },
    );
  };
}
