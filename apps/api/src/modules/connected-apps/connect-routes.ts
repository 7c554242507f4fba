import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approveConnectRequestSchema, connectRedirectSchema, connectRequestSchema } from '@strongroom/contracts/connected-apps.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { approveConnectRequest, connectRequestOf, refuseConnectRequest } from './oauth/interactions.ts';

/** An interaction uid in a path: any short string, so a malformed one answers 404 like an unknown one. */
const uidParams = z.object({ uid: z.string().max(64) });

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The approval's Idempotency-Key, with words for this request rather than a payment's. */
function approvalKeyFrom(header: string | string[] | undefined): string {
  try {
    return idempotencyKeyFrom(header);
  } catch (error) {
    if (error instanceof AppError) throw new AppError('validation_failed', 'Approving a connected app needs an Idempotency-Key header', error.details);
    throw error;
  }
}

/**
 * The consent page's API (PRODUCT.md section 7; docs/connected-apps.md, "Consent"), for the
 * signed-in customer in the browser that started the request: `GET /connect/requests/{uid}`, then
 * `POST .../approve` (Idempotency-Key; a step-up every time) or `POST .../refuse`; both answer
 * where the browser goes next.
 */
export function connectRoutes(dependencies: ConnectedAppsDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    const tags = ['connected-apps'];

    app.get(
      '/connect/requests/:uid',
      { schema: { tags, params: uidParams, response: { 200: connectRequestSchema, ...errorResponses(401, 404) } } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return connectRequestOf(dependencies, request, reply, customerIdOf(request), request.params.uid);
      },
    );

    app.post(
      '/connect/requests/:uid/approve',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '10 minutes' }) },
        schema: {
          tags,
          description: 'Idempotency-Key header required; a step-up every time: 403 step_up_required, then again with X-Step-Up.',
          params: uidParams,
          body: approveConnectRequestSchema,
          response: { 200: connectRedirectSchema, ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (request, reply) =>
        approveConnectRequest(dependencies, { request, reply }, customerActorOf(request), request.params.uid, {
          body: request.body,
          idempotencyKey: approvalKeyFrom(request.headers[idempotencyKeyHeader]),
          stepUpChallengeId: firstHeader(request.headers[stepUpHeader]),
        }),
    );

    app.post(
      '/connect/requests/:uid/refuse',
      { schema: { tags, params: uidParams, response: { 200: connectRedirectSchema, ...errorResponses(401, 404) } } },
      async (request, reply) => refuseConnectRequest(dependencies, { request, reply }, customerActorOf(request), request.params.uid),
    );
  };
}
