import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeProductRequestSchema,
  closeAccountRequestSchema,
  managedAccountResponseSchema,
  openAccountRequestSchema,
  type ManagedAccountResponse,
} from '@strongroom/contracts/account-management.ts';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { isErrorCode } from '@strongroom/contracts/http.ts';
import { requireCustomer } from '../../platform/authenticate.ts';
import { moneyRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import type { StoredResponse } from '../../platform/idempotency.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { idempotencyKeyOf } from '../../platform/request-headers.ts';
import { closeAccount } from './closing.ts';
import type { AccountManagementDependencies } from './managed-account.ts';
import { openAccount } from './opening.ts';
import { changeAccountProduct } from './tier-change.ts';

export const accountManagementErrors = errorResponses(400, 401, 403, 404, 409, 422, 429);

/**
 * An opening's answer, fresh or replayed from its Idempotency-Key: 201 with the account, or the
 * refusal it stored (its error, answered again with this request's id).
 */
export function sendOpeningAnswer(reply: FastifyReply, answer: StoredResponse): FastifyReply {
  if (answer.status === 201) return reply.code(201).send(managedAccountResponseSchema.parse(answer.body) satisfies ManagedAccountResponse);
  const stored = errorResponseSchema.parse(answer.body).error;
  if (!isErrorCode(stored.code)) throw new Error(`an opening stored an unknown error code: ${stored.code}`);
  throw new AppError(stored.code, stored.message);
}

/** The customer's own accounts: open another, close one, change a checking tier (docs/product.md section 7). */
export function accountManagementRoutes(dependencies: AccountManagementDependencies & { moneyRateLimitPerMinute: number }): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    const rateLimit = moneyRateLimit(dependencies.moneyRateLimitPerMinute);

    app.post(
      '/accounts',
      {
        config: { rateLimit },
        schema: {
          tags: ['accounts'],
          description: "Header Idempotency-Key required. 422 opening_deposit_too_low below the product's opening deposit; 400 without acceptDisclosure.",
          body: openAccountRequestSchema,
          response: { 201: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request, reply) => {
        const actor = customerActorOf(request);
        const answer = await openAccount(dependencies, { actor, customerId: actor.customerId }, request.body, idempotencyKeyOf(request));
        return sendOpeningAnswer(reply, answer);
      },
    );

    app.post(
      '/accounts/:id/close',
      {
        config: { rateLimit },
        schema: {
          tags: ['accounts'],
          description: '409 account_in_use while something depends on the account (the message says what).',
          params: idParams,
          body: closeAccountRequestSchema,
          response: { 200: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request) => {
        const actor = customerActorOf(request);
        return { account: await closeAccount(dependencies, { actor, customerId: actor.customerId }, request.params.id, request.body.toAccountId) };
      },
    );

    app.put(
      '/accounts/:id/product',
      {
        schema: {
          tags: ['accounts'],
          description: 'Another checking tier for a checking account; 422 product_not_allowed otherwise.',
          params: idParams,
          body: changeProductRequestSchema,
          response: { 200: managedAccountResponseSchema, ...accountManagementErrors },
        },
      },
      async (request) => {
        const actor = customerActorOf(request);
        return { account: await changeAccountProduct(dependencies, { actor, customerId: actor.customerId }, request.params.id, request.body.productId) };
      },
    );
  };
}
