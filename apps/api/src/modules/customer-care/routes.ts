import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customerActionRequestSchema,
  customerDetailSchema,
  customerSearchQuerySchema,
  customerSearchResponseSchema,
  endSessionsResponseSchema,
  freezeRequestSchema,
  freezeResponseSchema,
} from '@strongroom/contracts/staff-customers.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import {
  endAllCustomerSessions,
  endCustomerSession,
  findCustomers,
  freezeCustomer,
  unfreezeCustomer,
  viewCustomer,
  type CustomerCareDependencies,
} from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);
const sessionParams = idParams.extend({ sessionId: z.string().max(64) });

/**
 * `/staff/customers` (docs/product.md section 6): reading needs `customers.read`; ending a customer's
 * sessions, freezing and unfreezing need `customers.freeze` (admin), because each locks a
 * customer out of something and `customers.read` is every role's.
 */
export function customerCareRoutes(dependencies: CustomerCareDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const read = permit(db, 'customers.read');
    const act = permit(db, 'customers.freeze');

    app.get(
      '/staff/customers',
      { preValidation: read, schema: { tags: ['staff'], querystring: customerSearchQuerySchema, response: { 200: customerSearchResponseSchema, ...errors } } },
      async (request) => ({ items: await findCustomers(db, request.query.q) }),
    );

    app.get(
      '/staff/customers/:id',
      { preValidation: read, schema: { tags: ['staff'], params: idParams, response: { 200: customerDetailSchema, ...errors } } },
      async (request) => viewCustomer(dependencies, staffActorOf(request), request.params.id),
    );

    app.post(
      '/staff/customers/:id/sessions/:sessionId/end',
      {
        preValidation: act,
        schema: { tags: ['staff'], params: sessionParams, body: customerActionRequestSchema, response: { 200: endSessionsResponseSchema, ...errors } },
      },
      async (request) => {
        await endCustomerSession(db, staffActorOf(request), request.params.id, request.params.sessionId, request.body.reason);
        return { ended: 1 };
      },
    );

    app.post(
      '/staff/customers/:id/sessions/end-all',
      {
        preValidation: act,
        schema: { tags: ['staff'], params: idParams, body: customerActionRequestSchema, response: { 200: endSessionsResponseSchema, ...errors } },
      },
      async (request) => ({
        ended: await endAllCustomerSessions(db, staffActorOf(request), request.params.id, request.body.reason),
      }),
    );

    app.post(
      '/staff/customers/:id/freeze',
      {
        preValidation: act,
        schema: { tags: ['staff'], params: idParams, body: freezeRequestSchema, response: { 200: freezeResponseSchema, ...errors } },
      },
      async (request) => ({
        freeze: await freezeCustomer(dependencies, staffActorOf(request), request.params.id, request.body),
      }),
    );

    app.post(
      '/staff/customers/:id/unfreeze',
      {
        preValidation: act,
        schema: { tags: ['staff'], params: idParams, body: customerActionRequestSchema, response: { 200: freezeResponseSchema, ...errors } },
      },
      async (request) => ({
        freeze: await unfreezeCustomer(dependencies, staffActorOf(request), request.params.id, request.body.reason),
      }),
    );
  };
}
