import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { beneficiaryListSchema, beneficiaryResponseSchema, createBeneficiaryRequestSchema } from '@strongroom/contracts/beneficiaries.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { addBeneficiary, deleteBeneficiary, listSavedBeneficiaries } from './service.ts';

/**
 * Saving a payee of this bank tells whether an account number exists; this bounds how fast one
 * customer can ask (from any address, through any process), far above what a person adding payees
 * by hand needs.
 */
export const beneficiaryAdditionsPerHourPerCustomer = 60;

export function beneficiaryRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);

    app.get('/beneficiaries', { schema: { tags: ['beneficiaries'], response: { 200: beneficiaryListSchema, ...errorResponses(401) } } }, async (request) => ({
      items: await listSavedBeneficiaries(db, customerIdOf(request)),
    }));

    app.post(
      '/beneficiaries',
      {
        config: { rateLimit: perCustomerRateLimit({ max: beneficiaryAdditionsPerHourPerCustomer, timeWindow: '1 hour' }) },
        schema: {
          tags: ['beneficiaries'],
          body: createBeneficiaryRequestSchema,
          response: {
            201: beneficiaryResponseSchema,
            ...errorResponses(400, 401, 403, 409, 422, 429),
          },
        },
      },
      async (request, reply) => {
        const beneficiary = await addBeneficiary(db, customerActorOf(request), request.body);
        return reply.status(201).send({ beneficiary });
      },
    );

    app.delete(
      '/beneficiaries/:id',
      {
        schema: {
          tags: ['beneficiaries'],
          // Any string: a malformed id answers 404 like an unknown one, not 400.
          params: z.object({ id: z.string() }),
          response: { 204: z.null(), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteBeneficiary(db, customerIdOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
