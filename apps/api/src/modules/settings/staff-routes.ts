import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bankSettingsResponseSchema, bankSettingsUpdateSchema } from '@strongroom/contracts/staff-settings.ts';
import type { Database } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { changeBankSettings, staffBankSettings } from './service.ts';

const errors = errorResponses(400, 401, 403);

/**
 * The bank's contact details and the home page's figures as staff see and edit them (`settings.edit`, admin). `/settings/public`
 * reads the same row on every request (no cache in the process), so `/contact` shows a change at once.
 */
export function staffSettingsRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, db);

    app.get('/staff/settings', { schema: { tags: ['staff'], response: { 200: bankSettingsResponseSchema, ...errors } } }, async () => staffBankSettings(db));

    app.put(
      '/staff/settings',
      {
        preValidation: permit(db, 'settings.edit'),
        schema: { tags: ['staff'], body: bankSettingsUpdateSchema, response: { 200: bankSettingsResponseSchema, ...errors } },
      },
      async (request) => changeBankSettings(db, staffActorOf(request), request.body),
    );
  };
}
