import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authorizationOutcomeResponseSchema,
  authorizationRequestSchema,
  authorizationResponseSchema,
  clearAuthorizationRequestSchema,
} from '@strongroom/contracts/cards.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { clearAuthorization, reverseAuthorization } from './authorization-holds.ts';
import { authorize } from './authorizations.ts';
import type { CardDependencies } from './card-dependencies.ts';
import { unlessRefused } from './refusals.ts';

const errors = errorResponses(400, 404, 409, 422);

/**
 * The sandbox's card network (app.ts registers it only in sandbox; production answers 404): a
 * merchant's authorisation by card number, expiry and CVV, its clearing (possibly for less) and
 * its reversal. No session: it stands for the network, not a customer.
 */
export function cardNetworkRoutes(dependencies: CardDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sandbox'];
    app.post(
      '/dev/card-network/authorizations',
      {
        config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
        schema: { tags, body: authorizationRequestSchema, response: { 201: authorizationResponseSchema, ...errors } },
      },
      async (request, reply) => reply.status(201).send({ authorization: await authorize(dependencies, request.body, 'network') }),
    );

    app.post(
      '/dev/card-network/authorizations/:id/clear',
      {
        schema: { tags, params: idParams, body: clearAuthorizationRequestSchema.nullish(), response: { 200: authorizationOutcomeResponseSchema, ...errors } },
      },
      async (request) => {
        const cleared = unlessRefused(await clearAuthorization(dependencies, request.params.id, request.body?.amountCents));
        return cleared.answer;
      },
    );

    app.post(
      '/dev/card-network/authorizations/:id/reverse',
      { schema: { tags, params: idParams, response: { 200: authorizationOutcomeResponseSchema, ...errors } } },
      async (request) => {
        const reversed = unlessRefused(await reverseAuthorization(dependencies, request.params.id));
        return reversed.answer;
      },
    );
  };
}
