import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditFilterSchema, auditPageSchema, auditQuerySchema } from '@strongroom/contracts/staff-audit.ts';
import type { Queryable } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { auditPage, exportAuditLog } from './service.ts';

const errors = errorResponses(400, 401, 403);

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
        const exported = await exportAuditLog(db, staffActorOf(request), request.query);
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', 'attachment; filename="audit-log.csv"');
        return reply.send(exported.csv);
      },
    );
  };
}
