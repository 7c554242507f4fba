import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { bankSettingsResponseSchema, bankSettingsUpdateSchema } from '@strongroom/contracts/staff-settings.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { permit, requireStaff, staffAudit } from '../../platform/staff-auth.ts';
import { readStoredBankSettings, updateBankSettings, type StoredBankSettings } from './repository.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

function answerOf(row: StoredBankSettings) {
  return { address: row.address, phone: row.phone, supportEmail: row.support_email, homeCounters: row.home_counters, updatedAt: row.updated_at.toISOString() };
}

/**
 * The bank's contact details and the home page's figures as staff see and edit them (`settings.edit`, admin). `/settings/public`
 * reads the same row on every request (no cache in the process), so `/contact` shows a change at once.
 */
export function staffSettingsRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, db);

    app.get('/staff/settings', { schema: { tags: ['staff'], response: { 200: bankSettingsResponseSchema, ...errors } } }, async () =>
      answerOf(await readStoredBankSettings(db)),
    );

    app.put(
      '/staff/settings',
      {
        preValidation: permit(db, 'settings.edit'),
        schema: { tags: ['staff'], body: bankSettingsUpdateSchema, response: { 200: bankSettingsResponseSchema, ...errors } },
      },
      async (request) => {
        const { address, phone, supportEmail, homeCounters, reason } = request.body;
        // The change and its audit row commit together: no change without its record, nor the reverse.
        await db.transaction(async (tx) => {
          const before = await updateBankSettings(tx, { address, phone, support_email: supportEmail, home_counters: homeCounters });
          await recordAudit(
            tx,
            staffAudit(request, {
              action: 'settings.update',
              subject: 'bank_settings',
              outcome: 'success',
              details: {
                addressBefore: before.address,
                addressAfter: address,
                phoneBefore: before.phone,
                phoneAfter: phone,
                supportEmailBefore: before.support_email,
                supportEmailAfter: supportEmail,
                // The audit's details are flat values: the figures go in as their JSON.
                homeCountersBefore: JSON.stringify(before.home_counters),
                homeCountersAfter: JSON.stringify(homeCounters ?? before.home_counters),
                reason: reason ?? null,
              },
            }),
          );
        });
        return answerOf(await readStoredBankSettings(db));
      },
    );
  };
}
