import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createFundingSourceRequestSchema,
  fundingSourceListSchema,
  fundingSourceResponseSchema,
  verifyFundingSourceRequestSchema,
} from '@strongroom/contracts/funding-sources.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { refuseWhenFrozen } from '../../platform/account-freeze.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { fundingSourcesOf, linkFundingSource, removeFundingSource, verifyFundingSource, type FundingSourceDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);
// Any string: a malformed id answers 404 like an unknown one, not 400.
const sourceParams = z.object({ id: z.string().max(64) });

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `/funding-sources`: the customer's accounts at other banks (docs/product.md section 6). */
export function fundingSourceRoutes(dependencies: FundingSourceDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);

    app.get(
      '/funding-sources',
      { schema: { tags: ['funding-sources'], response: { 200: fundingSourceListSchema, ...errorResponses(401) } } },
      async (request) => ({
        items: await fundingSourcesOf(dependencies.db, customerIdOf(request)),
      }),
    );

    app.post(
      '/funding-sources',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '1 hour' }) },
        preHandler: refuseWhenFrozen(dependencies.db),
        schema: {
          tags: ['funding-sources'],
          description: 'Step-up first (403 step_up_required, then again with X-Step-Up). An Idempotency-Key header makes a repeat answer the same link.',
          body: createFundingSourceRequestSchema,
          response: { 201: fundingSourceResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const keyHeader = firstHeader(request.headers[idempotencyKeyHeader]);
        const fundingSource = await linkFundingSource(dependencies, customerActorOf(request), request.body, {
          idempotencyKey: keyHeader === undefined ? undefined : idempotencyKeyFrom(keyHeader),
          stepUpChallengeId: firstHeader(request.headers[stepUpHeader]),
        });
        return reply.status(201).send({ fundingSource });
      },
    );

    app.post(
      '/funding-sources/:id/verify',
      {
        // Three tries per link are the real limit; this stops a script trying every link at once.
        config: { rateLimit: perCustomerRateLimit({ max: 30, timeWindow: '1 hour' }) },
        preHandler: refuseWhenFrozen(dependencies.db),
        schema: {
          tags: ['funding-sources'],
          params: sourceParams,
          body: verifyFundingSourceRequestSchema,
          response: { 200: fundingSourceResponseSchema, ...errors },
        },
      },
      async (request) => ({ fundingSource: await verifyFundingSource(dependencies, customerActorOf(request), request.params.id, request.body.amountsCents) }),
    );

    app.delete(
      '/funding-sources/:id',
      { schema: { tags: ['funding-sources'], params: sourceParams, response: { 204: z.null(), ...errors } } },
      async (request, reply) => {
        await removeFundingSource(dependencies, customerActorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
