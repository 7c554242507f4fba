import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { auditFilterSchema, auditPageSchema, auditQuerySchema } from '@strongroom/contracts/staff-audit.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { permit, requireStaff, staffAudit } from '../../platform/staff-auth.ts';
import { auditExport, auditPage } from './service.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** The audit log viewer (`audit.read`, admin): a filtered page newest first, and the same filter as CSV. */
export function auditRoutes(db: Queryable): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, db);

    app.get(
      '/staff/audit',
      { preValidation: permit(db, 'audit.read'), schema: { tags: ['staff'], querystring: auditQuerySchema, response: { 200: auditPageSchema, ...errors } } },
      async (request) => {
        const { cursor, ...filter } = request.query;
        return auditPage(db, filter, cursor);
      },
    );

    app.get(
      '/staff/audit.csv',
      {
        preValidation: permit(db, 'audit.read'),
        schema: { tags: ['staff'], querystring: auditFilterSchema, response: { 200: z.unknown().describe('text/csv, newest first'), ...errors } },
      },
      async (request, reply) => {
        const filter = request.query;
        const exported = await auditExport(db, filter);
        // Who exported what: the filter itself, so a later reader knows which rows left the bank.
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'audit.export',
            outcome: 'success',
            details: {
              actor: filter.actor ?? null,
              action: filter.action ?? null,
              subject: filter.subject ?? null,
              from: filter.from ?? null,
              to: filter.to ?? null,
              rows: exported.rows,
              truncated: exported.truncated,
            },
          }),
        );
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', 'attachment; filename="audit-log.csv"');
        return reply.send(exported.csv);
      },
    );
  };
}
