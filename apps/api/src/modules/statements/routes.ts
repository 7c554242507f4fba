import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { statementMonthsSchema, statementQuerySchema } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { openOnReplicaFor, readOnReplicaFor } from '../../platform/read-your-writes.ts';
import { statementCsv } from './csv.ts';
import { statementOfx } from './ofx.ts';
import { statementPdf } from './pdf.ts';
import { openStatement, statementFileName, statementMonths, type Statement } from './service.ts';

const formats = {
  pdf: { contentType: 'application/pdf', render: statementPdf },
  csv: { contentType: 'text/csv; charset=utf-8', render: statementCsv },
  ofx: { contentType: 'application/x-ofx', render: statementOfx },
} satisfies Record<string, { contentType: string; render: (statement: Statement) => AsyncGenerator<string | Buffer, void, undefined> }>;

const errors = errorResponses(400, 401, 404, 429);
/** A statement reads up to a year of the ledger; a person downloads a few, a script looping on it is stopped. */
export const statementDownloadsPerMinutePerCustomer = 30;

/**
 * `GET /accounts/{id}/statement?from=&to=&format=pdf|csv|ofx` (docs/product.md section 5). The file is
 * streamed: lines are read from the ledger a batch at a time and written as they come.
 * `GET /accounts/{id}/statement/months`: the months the statement picker offers.
 */
export function statementRoutes(db: Database, config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/accounts/:id/statement',
      {
        config: { rateLimit: perCustomerRateLimit({ max: statementDownloadsPerMinutePerCustomer, timeWindow: '1 minute' }) },
        schema: {
          tags: ['statements'],
          params: z.object({ id: z.string().max(64) }),
          querystring: statementQuerySchema,
          response: { 200: z.unknown().describe('The statement file: application/pdf, text/csv or application/x-ofx'), ...errors },
        },
      },
      async (request, reply) => {
        const { format, from, to } = request.query;
        // Statements may read a replica that has the customer's own last write; the file's lines, read as it is sent, stay on it (docs/deploy.md).
        const statement = await openOnReplicaFor(request, reply, db, (reader) =>
          openStatement(reader, config, customerIdOf(request), request.params.id, { from, to }),
        );
        const { contentType, render } = formats[format];
        reply.header('content-type', contentType);
        reply.header('content-disposition', `attachment; filename="${statementFileName(statement, format)}"`);
        // A byte stream (not object mode), so that the reply's backpressure is counted in bytes.
        return reply.send(Readable.from(render(statement), { objectMode: false }));
      },
    );
    app.get(
      '/accounts/:id/statement/months',
      {
        schema: {
          tags: ['statements'],
          params: z.object({ id: z.string().max(64) }),
          response: { 200: statementMonthsSchema, ...errors },
        },
      },
      async (request) => readOnReplicaFor(request, db, (reader) => statementMonths(reader, config, customerIdOf(request), request.params.id)),
    );
  };
}
