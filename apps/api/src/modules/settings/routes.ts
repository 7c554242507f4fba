import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicSettingsSchema } from '@strongroom/contracts/settings.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { demoSignIn } from '../onboarding/service.ts';
import { readBankSettings } from './repository.ts';

export function settingsRoutes(config: Pick<Config, 'bankName' | 'mode'>, db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings/public', { schema: { tags: ['settings'], response: { 200: publicSettingsSchema } } }, async () => {
      const settings = await readBankSettings(db);
      return {
        bankName: config.bankName,
        mode: config.mode,
        address: settings.address,
        phone: settings.phone,
        supportEmail: settings.support_email,
        homeCounters: settings.home_counters,
        ...(config.mode === 'sandbox' ? { demoSignIn } : {}),
      };
    });
  };
}
