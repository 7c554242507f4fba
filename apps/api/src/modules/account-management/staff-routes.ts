import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  managedAccountResponseSchema,
  staffChangeProductRequestSchema,
  staffCloseAccountRequestSchema,
  staffOpenAccountRequestSchema,
} from '@strongroom/contracts/account-management.ts';
import { idempotencyKeyHeader } from '@strongroom/contracts/payments.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { closeAccount } from './closing.ts';
import { accountOwner, type AccountManagementDependencies } from './managed-account.ts';
import { accountManagementErrors, sendOpeningAnswer } from './manage-routes.ts';
import { openAccount } from './opening.ts';
import { changeAccountProduct } from './tier-change.ts';

/**
 * Staff open, close and change a customer's accounts (`accounts.manage`: operations and
 * administrators), each with a reason recorded in its audit entry, by the same rules as the
 * customer's own requests. An opening's disclosure is given to the customer in person
 * (`disclosureGiven`); its Idempotency-Key is optional here (a console retry sends the same one).
 */
export function accountStaffRoutes(dependencies: AccountManagementDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireStaff(app, dependencies.db);
    const allowed = permit(dependencies.db, 'accounts.manage');

    app.post(
      '/staff/customers/:id/accounts',
      {
        preValidation: allowed,
        schema: {
          tags: ['staff'],
          description: 'Header Idempotency-Key optional. The same rules and answers as POST /accounts.',
          params: idParams,
          body: staffOpenAccountRequestSchema,
          response: { 201: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request, reply) => {
        const header = request.headers[idempotencyKeyHeader];
        const key = header === undefined ? `staff-${randomUUID()}` : idempotencyKeyFrom(header);
        const { reason, disclosureGiven: _given, ...opening } = request.body;
        const answer = await openAccount(dependencies, { actor: staffActorOf(request), customerId: request.params.id, reason }, opening, key);
        return sendOpeningAnswer(reply, answer);
      },
    );

    app.post(
      '/staff/accounts/:id/close',
      {
        preValidation: allowed,
        schema: {
          tags: ['staff'],
          params: idParams,
          body: staffCloseAccountRequestSchema,
          response: { 200: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request) => {
        const customerId = await accountOwner(dependencies.db, request.params.id);
        const requester = { actor: staffActorOf(request), customerId, reason: request.body.reason };
        return { account: await closeAccount(dependencies, requester, request.params.id, request.body.toAccountId) };
      },
    );

    app.put(
      '/staff/accounts/:id/product',
      {
        preValidation: allowed,
        schema: {
          tags: ['staff'],
          params: idParams,
          body: staffChangeProductRequestSchema,
          response: { 200: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request) => {
        const customerId = await accountOwner(dependencies.db, request.params.id);
        const requester = { actor: staffActorOf(request), customerId, reason: request.body.reason };
        return { account: await changeAccountProduct(dependencies, requester, request.params.id, request.body.productId) };
      },
    );
  };
}
