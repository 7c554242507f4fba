import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authorizationOutcomeResponseSchema,
  authorizationRequestSchema,
  authorizationResponseSchema,
  clearAuthorizationRequestSchema,
} from '@strongroom/contracts/cards.ts';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { authorize, clearAuthorization, reverseAuthorization, type CardDependencies } from './service.ts';

const errors = { 400: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema, 422: errorResponseSchema };

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
      async (request) => clearAuthorization(dependencies, request.params.id, request.body?.amountCents),
    );

    app.post(
      '/dev/card-network/authorizations/:id/reverse',
      { schema: { tags, params: idParams, response: { 200: authorizationOutcomeResponseSchema, ...errors } } },
      async (request) => reverseAuthorization(dependencies, request.params.id),
    );
  };
}
