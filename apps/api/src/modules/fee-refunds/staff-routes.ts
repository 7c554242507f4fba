import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { customerFeeListSchema, feeRefundReasonSchema, feeRefundResponseSchema } from '@strongroom/contracts/products.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { customerFees, decideFeeRefund, requestFeeRefund, type FeeRefundDependencies, type FeeRefundOutcome } from './fee-refunds.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** The API's answer to a fee refund step that did not succeed. */
function refusal(outcome: Exclude<FeeRefundOutcome, { refund: unknown }>): AppError {
  switch (outcome.kind) {
    case 'not_found':
      return new AppError('not_found', 'No such fee refund');
    case 'already_refunded':
      return new AppError('fee_already_refunded', 'This fee was already refunded, or its refund is waiting for a second approval');
    case 'already_decided':
      return new AppError('already_decided', 'This refund was already decided');
    case 'same_staff':
      return new AppError('four_eyes_required', 'You asked for this refund: a second staff member must approve it');
    case 'linked_staff':
      return new AppError(
        'four_eyes_required',
        "You and the staff member who asked for this refund are linked: one of you granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must approve.",
      );
    case 'no_open_account':
      return new AppError('no_account', 'The customer has no open account of this kind to refund the fee into');
  }
}

/** The back office's fee refunds (`fees.refund`), issue 32 item 4: at once below the threshold, with a second person's approval above it. */
export function feeRefundStaffRoutes(dependencies: FeeRefundDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const refunds = { preValidation: permit(db, 'fees.refund') };

    app.get(
      '/staff/customers/:id/fees',
      { ...refunds, schema: { tags: ['staff'], params: idParams, response: { 200: customerFeeListSchema, ...errors } } },
      async (request) => {
        const fees = await customerFees(db, request.params.id);
        if (!fees) throw new AppError('not_found', 'No such customer');
        return fees;
      },
    );

    app.post(
      '/staff/fees/:id/refund',
      {
        ...refunds,
        schema: {
          tags: ['staff'],
          params: idParams,
          body: feeRefundReasonSchema,
          response: { 201: feeRefundResponseSchema, 202: feeRefundResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const outcome = await requestFeeRefund(dependencies, request.params.id, request.body.reason, staffActorOf(request));
        if (!('refund' in outcome)) throw outcome.kind === 'not_found' ? new AppError('not_found', 'No such fee') : refusal(outcome);
        return reply.status(outcome.kind === 'refunded' ? 201 : 202).send({ refund: outcome.refund });
      },
    );

    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/staff/fee-refunds/:id/${decision}`,
        { ...refunds, schema: { tags: ['staff'], params: idParams, body: feeRefundReasonSchema, response: { 200: feeRefundResponseSchema, ...errors } } },
        async (request) => {
          const outcome = await decideFeeRefund(dependencies, request.params.id, decision, request.body.reason, staffActorOf(request));
          if (!('refund' in outcome)) throw refusal(outcome);
          return { refund: outcome.refund };
        },
      );
    }
  };
}
