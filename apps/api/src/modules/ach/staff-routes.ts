import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { achFileQuerySchema } from '@strongroom/contracts/staff-payments.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { permit, requireStaff, staffAudit } from '../../platform/staff-auth.ts';
import { exportAchCreditsOf, type AchDependencies } from './service.ts';

/**
 * `GET /staff/payments/ach-file?date=YYYY-MM-DD&reason=` (`payments.settle`): the day's outgoing ACH
 * credits as a NACHA file to download. A GET changes nothing at the rail (no file or trace number
 * is recorded: see `exportAchCreditsOf`); the download itself is audited, since the file holds
 * account numbers. A day with no credits answers 404.
 */
export function staffAchRoutes(dependencies: Pick<AchDependencies, 'db' | 'config'>): FastifyPluginAsyncZod {
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
          response: { 200: z.string(), 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema },
        },
      },
      async (request, reply) => {
        const { date, reason } = request.query;
        const file = await exportAchCreditsOf(dependencies, date);
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'ach.file_exported',
            subject: date,
            outcome: file ? 'success' : 'failure',
            details: { entries: file?.entryCount ?? 0, creditCents: (file?.creditTotalCents ?? 0n).toString(), reason: reason ?? null },
          }),
        );
        if (!file) throw new AppError('not_found', `No ACH credits are expected to settle on ${date}`);
        return reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="ach-credits-${date}.txt"`)
          .header('cache-control', 'no-store')
          .send(file.text);
      },
    );
  };
}
