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

    // Ready means the process can write, not only reach a database: through HAProxy a node that
    // is a standby (a failover in progress, or a read port given as DATABASE_URL by mistake)
    // answers `SELECT 1` but refuses every payment. A standby's transactions are read-only.
    app.get('/ready', { schema: { tags: ['platform'], response: { 200: readyResponseSchema, ...errorResponses(503) } } }, async () => {
      const state = await Promise.race([
        db.query<{ read_only: string }>("SELECT current_setting('transaction_read_only') AS read_only").then(
          ([row]) => (row?.read_only === 'off' ? ('writable' as const) : ('read-only' as const)),
          () => 'unreachable' as const,
        ),
        new Promise<'unreachable'>((resolve) => setTimeout(() => resolve('unreachable'), readinessTimeoutMs).unref()),
      ]);
      if (state === 'unreachable') throw new AppError('service_unavailable', 'The database is not reachable');
      if (state === 'read-only') throw new AppError('service_unavailable', 'The database accepts no writes: it is a standby, or no primary is elected yet');
      return { status: 'ready' as const, database: db.kind };
    });
  };
}
