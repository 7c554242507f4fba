import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { achFileQuerySchema } from '@strongroom/contracts/staff-payments.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { downloadAchCredits, type AchDependencies } from './service.ts';

/**
 * `GET /staff/payments/ach-file?date=YYYY-MM-DD&reason=` (`payments.settle`): the day's outgoing ACH
 * credits as a NACHA file to download. A GET changes nothing at the rail (no file or trace number
 * is recorded: see `exportAchCreditsOf`); the download itself is audited, since the file holds
 * account numbers. A day with no credits answers 404.
 */
export function staffAchRoutes(dependencies: Pick<AchDependencies, 'db' | 'config' | 'clock'>): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    app.get(
      '/staff/payments/ach-file',
      {
        preValidation: permit(db, 'payments.settle'),
        schema: {
          tags: ['staff'],
          querystring: achFileQuerySchema,
          response: { 200: z.string(), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { date, reason } = request.query;
        const file = await downloadAchCredits(dependencies, staffActorOf(request), date, reason);
        return reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="ach-credits-${date}.txt"`)
          .header('cache-control', 'no-store')
          .send(file.text);
      },
    );
  };
}
