import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  heldTransferDecisionResponseSchema,
  heldTransferDecisionSchema,
  heldTransferListSchema,
  heldTransfersQuerySchema,
  staffPaymentListSchema,
  staffPaymentsQuerySchema,
} from '@strongroom/contracts/staff-payments.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffOf } from '../../platform/staff-auth.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { reviewHeldPayment } from './held-review.ts';
import { heldTransfer, heldTransfersPage, paymentsAtRailsPage } from './staff-queues.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/** Why a linked second approver is refused (decision 050), in the words the console shows. */
const linkedApproversMessage =
  "You and the first approver are linked: one of you granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must approve.";

/** The back office's payment queues (docs/product.md section 6): held transfers (`transfers.review`) and the rails (`payments.settle`). */
export function staffPaymentRoutes(dependencies: PaymentDependencies): FastifyPluginAsyncZod {
  const { db, config } = dependencies;
  return async (app) => {
    requireStaff(app, db);

    app.get(
      '/staff/held-transfers',
      {
        preValidation: permit(db, 'transfers.review'),
        schema: { tags: ['staff'], querystring: heldTransfersQuerySchema, response: { 200: heldTransferListSchema, ...errors } },
      },
      async (request) => {
        const { status, cursor } = request.query;
        return heldTransfersPage(db, status, cursor, config.fourEyesCents);
      },
    );

    app.get(
      '/staff/held-transfers/:id',
      {
        preValidation: permit(db, 'transfers.review'),
        schema: { tags: ['staff'], params: idParams, response: { 200: heldTransferDecisionResponseSchema.shape.transfer, ...errors } },
      },
      async (request) => {
        const transfer = await heldTransfer(db, request.params.id, config.fourEyesCents);
        if (!transfer) throw new AppError('not_found', 'No such held transfer');
        return transfer;
      },
    );

    app.post(
      '/staff/held-transfers/:id/decision',
      {
        preValidation: permit(db, 'transfers.review'),
        schema: {
          tags: ['staff'],
          params: idParams,
          body: heldTransferDecisionSchema,
          response: { 200: heldTransferDecisionResponseSchema, 202: heldTransferDecisionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const staff = staffOf(request);
        const outcome = await reviewHeldPayment(
          dependencies,
          request.params.id,
          { action: request.body.decision, reason: request.body.reason },
          { staffId: staff.id, audit: { ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id } },
        );
        if (outcome === 'not_found') throw new AppError('not_found', 'No such held transfer');
        if (outcome === 'already_decided') throw new AppError('already_decided', 'This transfer was already decided');
        if (outcome === 'four_eyes_required')
          throw new AppError('four_eyes_required', 'You approved this release already: a second staff member must complete it');
        if (outcome === 'approvers_linked') throw new AppError('four_eyes_required', linkedApproversMessage);
        if (outcome === 'released') await dependencies.settleSoon?.();
        const transfer = await heldTransfer(db, request.params.id, config.fourEyesCents);
        if (!transfer) throw new Error(`held transfer ${request.params.id} disappeared after its decision`);
        return reply.status(outcome === 'awaiting_second_approval' ? 202 : 200).send({ status: outcome, transfer });
      },
    );

    app.get(
      '/staff/payments',
      {
        preValidation: permit(db, 'payments.settle'),
        schema: { tags: ['staff'], querystring: staffPaymentsQuerySchema, response: { 200: staffPaymentListSchema, ...errors } },
      },
      async (request) => {
        const { rail, date, cursor } = request.query;
        const filter = { rails: rail ? [rail] : ['ach', 'wire'], date: date ?? null };
        return paymentsAtRailsPage(db, filter, cursor);
      },
    );
  };
}
