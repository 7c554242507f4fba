import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loanDecisionRequestSchema, staffLoanListQuerySchema, staffLoanListSchema, staffLoanResponseSchema } from '@strongroom/contracts/loans.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { auditActorOf, staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { decideLoan, type LoanDependencies } from './service.ts';
import { staffLoan, staffLoanQueue } from './staff-queues.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

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
        return staffLoanQueue(db, request.query.status, request.query.cursor);
      },
    );

    app.post(
      '/staff/loans/:id/decision',
      { ...guarded, schema: { tags: ['staff'], params: idParams, body: loanDecisionRequestSchema, response: { 200: staffLoanResponseSchema, ...errors } } },
      async (request) => {
        if (!isUuid(request.params.id)) throw new AppError('not_found', 'No such loan');
        const actor = staffActorOf(request);
        const outcome = await decideLoan(dependencies, { loanId: request.params.id, staffId: actor.staffId, body: request.body, audit: auditActorOf(actor) });
        if (outcome.kind === 'already_decided') throw new AppError('already_decided', 'This loan application was already decided');
        const loan = await staffLoan(db, request.params.id);
        if (!loan) throw new AppError('not_found', 'No such loan');
        return { loan };
      },
    );
  };
}
