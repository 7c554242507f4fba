import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  asOfQuerySchema,
  balanceSheetSchema,
  incomeStatementSchema,
  rangeQuerySchema,
  trialBalanceSchema,
  type ReportName,
} from '@strongroom/contracts/books.ts';
import { recordAudit } from '../../platform/audit.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, staffActorOf, type StaffActor } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { booksState } from './close.ts';
import type { BooksDependencies } from './dependencies.ts';
import { reportCsv, reportFileName, type BookReport } from './report-csv.ts';
import { reportPdf } from './report-pdf.ts';
import { balanceSheet, incomeStatement, trialBalance } from './reports.ts';

const errors = errorResponses(400, 401, 403);
/**
 * One path answers JSON, CSV or PDF, so the response schema cannot be the JSON's alone: the JSON is
 * parsed through the contract's schema in the handler instead, which drops any undeclared field.
 */
const reportResponse = z.unknown().describe('The report: JSON (the contract schema), text/csv or application/pdf');

function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', message, { fields: { [field]: message } });
}

/**
 * The books' reports for finance staff (`books.read`; docs/books.md, "Reports"):
 * `GET /staff/reports/{trial-balance|balance-sheet|income-statement}` as JSON, CSV or PDF. A day
 * after the bank's date has no books yet (400 on that field); every read is audited, as the
 * bank's figures are confidential.
 */
export function bookReportRoutes(dependencies: BooksDependencies): FastifyPluginAsyncZod {
  const { db, config, clock } = dependencies;

  /** Audits the read, then gives the report as JSON, or the file a download saves. */
  async function deliver(actor: StaffActor, report: BookReport, format: 'json' | 'csv' | 'pdf') {
    const period: Record<string, string> = report.report === 'income-statement' ? { from: report.from, to: report.to } : { asOf: report.asOf };
    await recordAudit(
      db,
      auditEntryOf(actor, { action: 'books.report_read', subject: report.report, outcome: 'success', details: { report: report.report, ...period, format } }),
    );
    if (format === 'json') return { json: report } as const;
    const disposition = `attachment; filename="${reportFileName(report, format)}"`;
    if (format === 'csv') return { file: { contentType: 'text/csv; charset=utf-8', disposition, body: reportCsv(report) } } as const;
    return { file: { contentType: 'application/pdf', disposition, body: await reportPdf(report, config.bankName) } } as const;
  }

  return async (app) => {
    requireStaff(app, db);
    const read = { preValidation: permit(db, 'books.read') };
    const asOfReports = {
      'trial-balance': { schema: trialBalanceSchema, build: trialBalance },
      'balance-sheet': { schema: balanceSheetSchema, build: balanceSheet },
    } as const;

    for (const name of ['trial-balance', 'balance-sheet'] as const satisfies readonly ReportName[]) {
      const { schema, build } = asOfReports[name];
      app.get(
        `/staff/reports/${name}`,
        { ...read, schema: { tags: ['staff'], querystring: asOfQuerySchema, response: { 200: reportResponse, ...errors } } },
        async (request, reply) => {
          const today = await bankDate(db, config, clock);
          // None asked for: the last closed day, or the bank's date while none is closed.
          const asOf = request.query.asOf ?? (await booksState(db, config, clock)).closedThrough ?? today;
          if (asOf > today) throw invalid('asOf', `Choose a day on or before the bank's date, ${today}`);
          const answer = await deliver(staffActorOf(request), await build(db, asOf), request.query.format);
          if ('json' in answer) return schema.parse(answer.json);
          return reply
            .header('content-type', answer.file.contentType)
            .header('cache-control', 'no-store')
            .header('content-disposition', answer.file.disposition)
            .send(answer.file.body);
        },
      );
    }

    app.get(
      '/staff/reports/income-statement',
      { ...read, schema: { tags: ['staff'], querystring: rangeQuerySchema, response: { 200: reportResponse, ...errors } } },
      async (request, reply) => {
        const { from, to, format } = request.query;
        const today = await bankDate(db, config, clock);
        if (to > today) throw invalid('to', `Choose a day on or before the bank's date, ${today}`);
        if (from > to) throw invalid('from', 'Choose a first day on or before the last day');
        const answer = await deliver(staffActorOf(request), await incomeStatement(db, from, to), format);
        if ('json' in answer) return incomeStatementSchema.parse(answer.json);
        return reply
          .header('content-type', answer.file.contentType)
          .header('cache-control', 'no-store')
          .header('content-disposition', answer.file.disposition)
          .send(answer.file.body);
      },
    );
  };
}
