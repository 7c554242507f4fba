import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { billPayeeListSchema, billPayeeResponseSchema, createBillPayeeRequestSchema } from '@strongroom/contracts/bill-payees.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { addBillPayee, deleteBillPayee, listBillPayees, type BillPayeeDependencies } from './service.ts';

/** Far above what a person adding payees by hand needs; a bound on guessing numbers against patterns. */
export const billPayeeAdditionsPerHourPerCustomer = 60;

/** `POST|GET /bill-payees`, `DELETE /bill-payees/{id}` (issue 33 item 2; docs/product.md section 7). */
export function billPayeeRoutes(dependencies: BillPayeeDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get('/bill-payees', { schema: { tags: ['bill-payees'], response: { 200: billPayeeListSchema, ...errorResponses(401) } } }, async (request) => ({
      items: await listBillPayees(db, customerIdOf(request)),
    }));

    app.post(
      '/bill-payees',
      {
        config: { rateLimit: perCustomerRateLimit({ max: billPayeeAdditionsPerHourPerCustomer, timeWindow: '1 hour' }) },
        schema: {
          tags: ['bill-payees'],
          body: createBillPayeeRequestSchema,
          response: { 201: billPayeeResponseSchema, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (request, reply) => {
        const payee = await addBillPayee(dependencies, customerActorOf(request), request.body);
        return reply.status(201).send({ payee });
      },
    );

    app.delete(
      '/bill-payees/:id',
      // Any id: a malformed one answers 404 like an unknown one, not 400.
      { schema: { tags: ['bill-payees'], params: idParams, response: { 204: z.null(), ...errorResponses(401, 403, 404) } } },
      async (request, reply) => {
        await deleteBillPayee(db, customerActorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
