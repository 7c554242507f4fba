import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { stepUpResendResponseSchema, stepUpVerifyRequestSchema, stepUpVerifyResponseSchema } from '@strongroom/contracts/step-up.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { resendStepUp, verifyStepUp, type StepUpDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 429);
const challengeParams = z.object({ challengeId: z.string().max(64) });

/**
 * `POST /step-up/{id}` completes a challenge with an SMS code, the authenticator app's code or a
 * recovery code (a frozen customer completes no money challenge: service.ts);
 * `POST /step-up/{id}/resend` sends a code by SMS, the first one when the customer asks for it (D10).
 */
export function stepUpRoutes(dependencies: StepUpDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    app.post(
      '/step-up/:challengeId',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 30, timeWindow: '10 minutes' }) },
        schema: { tags: ['step-up'], params: challengeParams, body: stepUpVerifyRequestSchema, response: { 200: stepUpVerifyResponseSchema, ...errors } },
      },
      async (request) => {
        await verifyStepUp(dependencies, customerIdOf(request), request.params.challengeId, request.body.code, request.id);
        return { verified: true as const };
      },
    );
    app.post(
      '/step-up/:challengeId/resend',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 10, timeWindow: '10 minutes' }) },
        schema: { tags: ['step-up'], params: challengeParams, response: { 200: stepUpResendResponseSchema, ...errors } },
      },
      async (request) => resendStepUp(dependencies, customerIdOf(request), request.params.challengeId, 'the request you started'),
    );
  };
}
