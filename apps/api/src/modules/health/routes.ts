import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema, readyResponseSchema } from '@strongroom/contracts/platform.ts';
import type { Database } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';

const readinessTimeoutMs = 2_000;

export function healthRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/health', { schema: { tags: ['platform'], response: { 200: healthResponseSchema } } }, async () => ({
      status: 'ok' as const,
    }));

    app.get('/ready', { schema: { tags: ['platform'], response: { 200: readyResponseSchema, ...errorResponses(503) } } }, async () => {
      const reachable = await Promise.race([
        db.query('SELECT 1').then(
          () => true,
          () => false,
        ),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), readinessTimeoutMs).unref()),
      ]);
      if (!reachable) throw new AppError('service_unavailable', 'The database is not reachable');
      return { status: 'ready' as const, database: db.kind };
    });
  };
}
