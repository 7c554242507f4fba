import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { loanDecisionRequestSchema, staffLoanListQuerySchema, staffLoanListSchema, staffLoanResponseSchema } from '@strongroom/contracts/loans.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffOf } from '../../platform/staff-auth.ts';
import { findLoan, lapseOffers, listLoansByStatus } from './repository.ts';
import { decideLoan, presentStaffLoan, type LoanDependencies } from './service.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
/** A page of the queue: each item reads the customer's accounts and income, so pages stay small. */
export const loanQueuePageSize = 25;

/** The back office's loan queue and decision (`loans.decide`, docs/product.md section 6). */
export function loanStaffRoutes(dependencies: LoanDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'loans.decide') };

    app.get(
      '/staff/loans',
      { ...guarded, schema: { tags: ['staff'], querystring: staffLoanListQuerySchema, response: { 200: staffLoanListSchema, ...errors } } },
      async (request) => {
        // Offers past their window show as lapsed whether or not the daily job has run yet.
        if (request.query.status === 'offered' || request.query.status === 'expired') await lapseOffers(db);
        const { rows, total } = await listLoansByStatus(db, request.query.status, decodeCursor(request.query.cursor), loanQueuePageSize);
        const page = rows.slice(0, loanQueuePageSize);
        const items = [];
        for (const row of page) items.push(await presentStaffLoan(db, row));
        const last = page.at(-1);
        return { items, nextCursor: rows.length > loanQueuePageSize && last ? encodeCursor({ at: last.created_text, id: last.id }) : null, total };
      },
    );

    app.post(
      '/staff/loans/:id/decision',
      { ...guarded, schema: { tags: ['staff'], params: idParams, body: loanDecisionRequestSchema, response: { 200: staffLoanResponseSchema, ...errors } } },
      async (request) => {
        if (!isUuid(request.params.id)) throw new AppError('not_found', 'No such loan');
        const member = staffOf(request);
        const outcome = await decideLoan(dependencies, {
          loanId: request.params.id,
          staffId: member.id,
          body: request.body,
          audit: { actorType: 'staff', actorId: member.id, ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id },
        });
        if (outcome.kind === 'already_decided') throw new AppError('already_decided', 'This loan application was already decided');
        const row = await findLoan(db, request.params.id);
        if (!row) throw new AppError('not_found', 'No such loan');
        return { loan: await presentStaffLoan(db, row) };
      },
    );
  };
}
