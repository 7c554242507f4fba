import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicSettingsSchema } from '@strongroom/contracts/settings.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { publicSettings } from './service.ts';

export function settingsRoutes(config: Pick<Config, 'bankName' | 'mode'>, db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings/public', { schema: { tags: ['settings'], response: { 200: publicSettingsSchema } } }, async () => publicSettings(config, db));
  };
}
