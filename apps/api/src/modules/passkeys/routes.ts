import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionResponseSchema } from '@strongroom/contracts/auth.ts';
import {
  passkeyAssertionRequestSchema,
  passkeyListSchema,
  passkeyOptionsResponseSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  passkeyResponseSchema,
} from '@strongroom/contracts/passkeys.ts';
import { stepUpVerifyResponseSchema } from '@strongroom/contracts/step-up.ts';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { deviceCookieName } from '../../platform/cookie-names.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf, originOf } from '../../platform/request-actor.ts';
import { stepUpAnswerOf } from '../../platform/request-headers.ts';
import { startSignedInBrowser } from '../auth/service.ts';
import { sessionAnswerFor } from '../customers/service.ts';
import {
  answerStepUpWithPasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removeCustomerPasskey,
  renameCustomerPasskey,
  signInOptions,
  signInWithPasskey,
  stepUpOptions,
  type PasskeyDependencies,
} from './service.ts';

const tags = ['passkeys'];
const errors = errorResponses(400, 401, 403, 404, 409, 429);
const challengeParams = z.object({ challengeId: z.string().max(64) });

/** Sign-in with a passkey (docs/decisions/030): no session yet. */
export function passkeySignInRoutes(dependencies: PasskeyDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/auth/passkey/options',
      {
        config: { rateLimit: { max: 30, timeWindow: '15 minutes' } },
        schema: { tags, response: { 200: passkeyOptionsResponseSchema, ...errors } },
      },
      async () => signInOptions(dependencies),
    );
    app.post(
      '/auth/passkey',
      {
        config: { rateLimit: { max: 30, timeWindow: '15 minutes' } },
        schema: { tags, body: passkeyAssertionRequestSchema, response: { 200: sessionResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const signedIn = await signInWithPasskey(dependencies, request.body.response as AuthenticationResponseJSON, {
          ...originOf(request),
          deviceToken: request.cookies[deviceCookieName(request)],
        });
        await startSignedInBrowser(dependencies.auth, request, reply, signedIn);
        return sessionAnswerFor(dependencies.db, signedIn.customerId);
      },
    );
  };
}

/** The signed-in customer's passkeys, and a step-up answered with one (docs/decisions/030). */
export function passkeyRoutes(dependencies: PasskeyDependencies): FastifyPluginAsyncZod {
  return async (customer) => {
    requireCustomer(customer, dependencies.db);

    customer.get('/me/passkeys', { schema: { tags, response: { 200: passkeyListSchema, ...errorResponses(401) } } }, async (request) => ({
      items: await listPasskeys(dependencies, customerIdOf(request)),
    }));

    customer.post(
      '/me/passkeys/registration/options',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '15 minutes' }) },
        schema: { tags, response: { 200: passkeyOptionsResponseSchema, ...errors } },
      },
      async (request) => registrationOptions(dependencies, customerActorOf(request), stepUpAnswerOf(request)),
    );

    customer.post(
      '/me/passkeys',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '15 minutes' }) },
        schema: { tags, body: passkeyRegisterRequestSchema, response: { 201: passkeyResponseSchema, ...errors } },
      },
      async (request, reply) => reply.status(201).send({ passkey: await registerPasskey(dependencies, customerActorOf(request), request.body) }),
    );

    customer.patch(
      '/me/passkeys/:id',
      { schema: { tags, params: idParams, body: passkeyRenameRequestSchema, response: { 200: passkeyResponseSchema, ...errors } } },
      async (request) => ({ passkey: await renameCustomerPasskey(dependencies, customerActorOf(request), request.params.id, request.body.name) }),
    );

    customer.delete('/me/passkeys/:id', { schema: { tags, params: idParams, response: { 204: z.null(), ...errors } } }, async (request, reply) => {
      await removeCustomerPasskey(dependencies, customerActorOf(request), request.params.id);
      return reply.status(204).send(null);
    });

    customer.post(
      '/step-up/:challengeId/passkey/options',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 30, timeWindow: '10 minutes' }) },
        schema: { tags, params: challengeParams, response: { 200: passkeyOptionsResponseSchema, ...errors } },
      },
      async (request) => stepUpOptions(dependencies, customerIdOf(request), request.params.challengeId),
    );

    customer.post(
      '/step-up/:challengeId/passkey',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 30, timeWindow: '10 minutes' }) },
        schema: { tags, params: challengeParams, body: passkeyAssertionRequestSchema, response: { 200: stepUpVerifyResponseSchema, ...errors } },
      },
      async (request) => {
        await answerStepUpWithPasskey(dependencies, customerActorOf(request), request.params.challengeId, request.body.response as AuthenticationResponseJSON);
        return { verified: true as const };
      },
    );
  };
}
