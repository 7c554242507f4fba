import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { monthlyStatementListSchema, monthlyStatementQuerySchema } from '@strongroom/contracts/monthly-statements.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { openOnReplicaFor, readOnReplicaFor } from '../../platform/read-your-writes.ts';
import { statementCsv } from './csv.ts';
import { monthlyStatementPdf } from './monthly-pdf.ts';
import { monthlyStatementFileName, monthlyStatements, openMonthlyStatement, type MonthlyStatementFile } from './monthly-service.ts';
import { statementOfx } from './ofx.ts';
import { statementDownloadsPerMinutePerCustomer } from './routes.ts';

/** The CSV and OFX are the statement of the period's, line for line; the PDF adds Regulation DD's figures. */
const formats = {
  pdf: { contentType: 'application/pdf', render: monthlyStatementPdf },
  csv: { contentType: 'text/csv; charset=utf-8', render: statementCsv },
  ofx: { contentType: 'application/x-ofx', render: statementOfx },
} satisfies Record<string, { contentType: string; render: (statement: MonthlyStatementFile) => AsyncGenerator<string | Buffer, void, undefined> }>;

const errors = errorResponses(400, 401, 404, 429);

/**
 * `GET /accounts/{id}/statements`: the account's monthly statements, newest first (a closed
 * account's too). `GET /accounts/{id}/statements/{statementId}?format=pdf|csv|ofx`: one of them as
 * a file, streamed. Another customer's account, or another account's statement, is a 404.
 */
export function monthlyStatementRoutes(db: Database, config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/accounts/:id/statements',
      {
        schema: {
          tags: ['statements'],
          params: z.object({ id: z.string().max(64) }),
          response: { 200: monthlyStatementListSchema, ...errors },
        },
      },
      // The list and the files may read a replica that has the customer's own last write (docs/deploy.md).
      async (request) => readOnReplicaFor(request, db, (reader) => monthlyStatements(reader, customerIdOf(request), request.params.id)),
    );
    app.get(
      '/accounts/:id/statements/:statementId',
      {
        config: { rateLimit: perCustomerRateLimit({ max: statementDownloadsPerMinutePerCustomer, timeWindow: '1 minute' }) },
        schema: {
          tags: ['statements'],
          params: z.object({ id: z.string().max(64), statementId: z.string().max(64) }),
          querystring: monthlyStatementQuerySchema,
          response: { 200: z.unknown().describe('The statement file: application/pdf, text/csv or application/x-ofx'), ...errors },
        },
      },
      async (request, reply) => {
        const { format } = request.query;
        const statement = await openOnReplicaFor(request, reply, db, (reader) =>
          openMonthlyStatement(reader, config, customerIdOf(request), request.params.id, request.params.statementId),
        );
        const { contentType, render } = formats[format];
        reply.header('content-type', contentType);
        reply.header('content-disposition', `attachment; filename="${monthlyStatementFileName(statement, format)}"`);
        // A byte stream (not object mode), so that the reply's backpressure is counted in bytes.
        return reply.send(Readable.from(render(statement), { objectMode: false }));
      },
    );
  };
}
