import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  adjustmentDecisionRequestSchema,
  adjustmentListResponseSchema,
  adjustmentResponseSchema,
  adjustmentStatuses,
  booksAccountsResponseSchema,
  booksDaysResponseSchema,
  createAdjustmentRequestSchema,
  listCursorField,
} from '@strongroom/contracts/books.ts';
import { roleHas, type StaffPermission } from '@strongroom/contracts/staff.ts';
import type { Queryable } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff, staffOf } from '../../platform/staff-auth.ts';
import { adjustmentPage, booksAccounts, closedDayMessage, decideAdjustment, requestAdjustment, type DecideAdjustmentOutcome } from './adjustments.ts';
import { booksDays } from './close.ts';
import type { BooksDependencies } from './dependencies.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

const adjustmentListQuerySchema = z.object({
  status: z.enum(adjustmentStatuses, { error: `status is one of: ${adjustmentStatuses.join(', ')}` }).optional(),
  cursor: listCursorField,
});

/** Either of two permissions (the list of entries is read by those who read the books and by those who post entries); refused as `permit` refuses the second. */
function permitEither(db: Queryable, first: StaffPermission, second: StaffPermission): preValidationAsyncHookHandler {
  const otherwise = permit(db, second);
  return async function (request, reply) {
    if (roleHas(staffOf(request).role, first)) return;
    await otherwise.call(this, request, reply);
  };
}

function businessDayClosed(day: string, closedThrough: string, field?: 'postedOn'): AppError {
  const message = closedDayMessage(day, closedThrough);
  return new AppError('business_day_closed', message, field ? { fields: { [field]: message } } : {});
}

function decisionRefusal(outcome: Exclude<DecideAdjustmentOutcome, { kind: 'posted' | 'rejected' }>): AppError {
  switch (outcome.kind) {
    case 'not_found':
      return new AppError('not_found', 'No such adjusting entry');
    case 'already_decided':
      return new AppError('already_decided', `This adjusting entry was already decided (${outcome.adjustment.status.replace('_', ' ')})`);
    case 'four_eyes_required':
      return new AppError(
        'four_eyes_required',
        outcome.refusal === 'same_staff'
          ? 'You asked for this adjusting entry: a second finance staff member must approve it'
          : "You and the staff member who asked for this entry are linked: one of you granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must approve.",
      );
    case 'business_day_closed':
      return businessDayClosed(outcome.day, outcome.closedThrough);
  }
}

/**
 * The closed days and the adjusting entries (issue 35 item 3, docs/books.md): reading the closes
 * and the chart needs `books.read`; an entry and its decision need `books.adjust` (201 posted, 202
 * awaiting a second member); the list of entries either.
 */
export function bookAdjustmentRoutes(dependencies: BooksDependencies): FastifyPluginAsyncZod {
  const { db, config, clock } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const reading = { preValidation: permit(db, 'books.read') };
    const adjusting = { preValidation: permit(db, 'books.adjust') };

    app.get('/staff/books/days', { ...reading, schema: { tags: ['staff'], response: { 200: booksDaysResponseSchema, ...errors } } }, async () =>
      booksDays(db, config, clock),
    );

    app.get('/staff/books/accounts', { ...reading, schema: { tags: ['staff'], response: { 200: booksAccountsResponseSchema, ...errors } } }, async () =>
      booksAccounts(db),
    );

    app.post(
      '/staff/books/adjustments',
      {
        ...adjusting,
        schema: { tags: ['staff'], body: createAdjustmentRequestSchema, response: { 201: adjustmentResponseSchema, 202: adjustmentResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const { amountCents, postedOn, ...rest } = request.body;
        const outcome = await requestAdjustment(
          dependencies,
          { ...rest, amountCents: BigInt(amountCents), ...(postedOn ? { postedOn } : {}) },
          staffActorOf(request),
        );
        switch (outcome.kind) {
          case 'invalid':
            throw new AppError('validation_failed', outcome.message, { fields: { [outcome.field]: outcome.message } });
          case 'business_day_closed':
            throw businessDayClosed(outcome.day, outcome.closedThrough, 'postedOn');
          case 'posted':
          case 'awaiting_approval':
            return reply.status(outcome.kind === 'posted' ? 201 : 202).send({ adjustment: outcome.adjustment });
        }
      },
    );

    app.get(
      '/staff/books/adjustments',
      {
        preValidation: permitEither(db, 'books.read', 'books.adjust'),
        schema: { tags: ['staff'], querystring: adjustmentListQuerySchema, response: { 200: adjustmentListResponseSchema, ...errors } },
      },
      async (request) => adjustmentPage(db, request.query.status, request.query.cursor),
    );

    app.post(
      '/staff/books/adjustments/:id/decision',
      {
        ...adjusting,
        schema: { tags: ['staff'], params: idParams, body: adjustmentDecisionRequestSchema, response: { 200: adjustmentResponseSchema, ...errors } },
      },
      async (request) => {
        if (!isUuid(request.params.id)) throw new AppError('not_found', 'No such adjusting entry');
        const outcome = await decideAdjustment(dependencies, request.params.id, request.body, staffActorOf(request));
        if (outcome.kind === 'posted' || outcome.kind === 'rejected') return { adjustment: outcome.adjustment };
        throw decisionRefusal(outcome);
      },
    );
  };
}
