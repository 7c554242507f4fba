import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import {
  createScheduledPaymentRequestSchema,
  scheduledPaymentDetailSchema,
  scheduledPaymentListSchema,
  scheduledPaymentResponseSchema,
  skipOccurrenceRequestSchema,
  upcomingPaymentListSchema,
} from '@strongroom/contracts/scheduled-payments.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { moneyRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { cancelSchedule, editSchedule, skipOccurrence } from './changes.ts';
import { createSchedule, listSchedules, scheduleDetail, upcomingPayments, type ScheduledPaymentDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Payments later or repeating (docs/product.md section 7, "Bills and scheduled payments"). */
export function scheduledPaymentRoutes(dependencies: ScheduledPaymentDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);
    // Making or changing a schedule counts against the customer's allowance of money requests.
    const rateLimit = moneyRateLimit(dependencies.config.moneyRateLimitPerMinute);
    const tags = ['scheduled-payments'];

    app.post(
      '/scheduled-payments',
      {
        config: { rateLimit },
        schema: {
          tags,
          description: 'Header Idempotency-Key required; X-Step-Up after a step-up.',
          body: createScheduledPaymentRequestSchema,
          response: { 201: scheduledPaymentResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const schedule = await createSchedule(dependencies, customerActorOf(request), request.body, {
          idempotencyKey: idempotencyKeyFrom(request.headers[idempotencyKeyHeader]),
          stepUpChallengeId: headerOf(request, stepUpHeader),
        });
        return reply.code(201).send({ schedule });
      },
    );

    app.get('/scheduled-payments', { schema: { tags, response: { 200: scheduledPaymentListSchema, ...errors } } }, async (request) => ({
      items: await listSchedules(dependencies, customerIdOf(request)),
    }));

    app.get('/scheduled-payments/upcoming', { schema: { tags, response: { 200: upcomingPaymentListSchema, ...errors } } }, async (request) => ({
      items: await upcomingPayments(dependencies, customerIdOf(request)),
    }));

    app.get('/scheduled-payments/:id', { schema: { tags, params: idParams, response: { 200: scheduledPaymentDetailSchema, ...errors } } }, async (request) =>
      scheduleDetail(dependencies, customerIdOf(request), request.params.id),
    );

    app.put(
      '/scheduled-payments/:id',
      {
        config: { rateLimit },
        schema: {
          tags,
          description: 'The same body as POST; X-Step-Up after a step-up (with the Idempotency-Key it was asked with, if any).',
          params: idParams,
          body: createScheduledPaymentRequestSchema,
          response: { 200: scheduledPaymentResponseSchema, ...errors },
        },
      },
      async (request) => {
        const key = headerOf(request, idempotencyKeyHeader);
        const schedule = await editSchedule(dependencies, customerActorOf(request), request.params.id, request.body, {
          ...(key === undefined ? {} : { idempotencyKey: idempotencyKeyFrom(key) }),
          stepUpChallengeId: headerOf(request, stepUpHeader),
        });
        return { schedule };
      },
    );

    app.post(
      '/scheduled-payments/:id/skip',
      { schema: { tags, params: idParams, body: skipOccurrenceRequestSchema, response: { 200: scheduledPaymentResponseSchema, ...errors } } },
      async (request) => ({ schedule: await skipOccurrence(dependencies, customerActorOf(request), request.params.id, request.body.date) }),
    );

    app.delete(
      '/scheduled-payments/:id',
      { schema: { tags, params: idParams, response: { 200: scheduledPaymentResponseSchema, ...errors } } },
      async (request) => ({ schedule: await cancelSchedule(dependencies, customerActorOf(request), request.params.id) }),
    );
  };
}
