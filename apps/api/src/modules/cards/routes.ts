import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cardLimitsRequestSchema,
  cardListResponseSchema,
  cardPaymentRequestSchema,
  cardResponseSchema,
  cardRevealListResponseSchema,
  cardRevealResponseSchema,
  cardTransactionListResponseSchema,
  createCardRequestSchema,
} from '@strongroom/contracts/cards.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { refuseWhenFrozen } from '../../platform/account-freeze.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { idempotencyKeyFrom } from '../../platform/idempotency.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { transactionsOf } from './authorizations.ts';
import type { CardDependencies } from './card-dependencies.ts';
import { cardOf, cardsOf, closeCard, freezeCard, requestCard, setLimits, unfreezeCard } from './card-lifecycle.ts';
import { revealCard, revealsOf } from './card-reveal.ts';
import { payCard } from './credit-payments.ts';
import { unlessRefused } from './refusals.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 429);

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The customer's cards (docs/product.md section 6 "Cards", issue 13). Someone else's card answers 404 like a missing one. */
export function cardRoutes(dependencies: CardDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireCustomer(app, db);
    const tags = ['cards'];

    app.get('/cards', { schema: { tags, response: { 200: cardListResponseSchema, ...errorResponses(401) } } }, async (request) => ({
      items: await cardsOf(dependencies, customerIdOf(request)),
    }));

    app.post(
      '/cards',
      {
        config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '1 hour' }) },
        preHandler: refuseWhenFrozen(db),
        schema: {
          tags,
          description: 'Requests a card (Idempotency-Key header required). 409 no_account, 422 savings_balance_required, 409 card_pending_approval.',
          body: createCardRequestSchema,
          response: { 201: cardResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const key = idempotencyKeyFrom(request.headers[idempotencyKeyHeader]);
        // A replay (same key, same body) answers the same card, with the same status.
        const { card } = unlessRefused(await requestCard(dependencies, customerActorOf(request), request.body, key));
        return reply.status(201).send({ card });
      },
    );

    app.get('/cards/:id', { schema: { tags, params: idParams, response: { 200: cardResponseSchema, ...errors } } }, async (request) => ({
      card: await cardOf(dependencies, customerIdOf(request), request.params.id),
    }));

    app.post('/cards/:id/freeze', { schema: { tags, params: idParams, response: { 200: cardResponseSchema, ...errors } } }, async (request) => ({
      card: unlessRefused(await freezeCard(dependencies, customerActorOf(request), request.params.id)),
    }));

    app.post('/cards/:id/unfreeze', { schema: { tags, params: idParams, response: { 200: cardResponseSchema, ...errors } } }, async (request) => ({
      card: unlessRefused(await unfreezeCard(dependencies, customerActorOf(request), request.params.id)),
    }));

    app.delete(
      '/cards/:id',
      { schema: { tags, description: 'Closes the card; closing is final.', params: idParams, response: { 200: cardResponseSchema, ...errors } } },
      async (request) => ({ card: unlessRefused(await closeCard(dependencies, customerActorOf(request), request.params.id)) }),
    );

    app.put(
      '/cards/:id/limits',
      { schema: { tags, params: idParams, body: cardLimitsRequestSchema, response: { 200: cardResponseSchema, ...errors } } },
      async (request) => ({ card: unlessRefused(await setLimits(dependencies, customerActorOf(request), request.params.id, request.body)) }),
    );

    registerCardDetailRoutes(app, dependencies);
  };
}

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** The reveal, its list, the transactions and the payment of a card (same plugin, so the same customer guard). */
function registerCardDetailRoutes(app: ZodApp, dependencies: CardDependencies): void {
  const tags = ['cards'];
  app.post(
    '/cards/:id/reveal',
    {
      config: { rateLimit: perCustomerRateLimit({ max: 20, timeWindow: '10 minutes' }) },
      schema: {
        tags,
        description: 'Step-up every time: 403 step_up_required, then again with X-Step-Up. The only answer with the full card number.',
        params: idParams,
        response: { 200: cardRevealResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const revealed = unlessRefused(await revealCard(dependencies, customerActorOf(request), request.params.id, firstHeader(request.headers[stepUpHeader])));
      reply.header('cache-control', 'no-store');
      return revealed;
    },
  );

  app.get('/cards/:id/reveals', { schema: { tags, params: idParams, response: { 200: cardRevealListResponseSchema, ...errors } } }, async (request) =>
    revealsOf(dependencies, customerIdOf(request), request.params.id),
  );

  app.get('/cards/:id/transactions', { schema: { tags, params: idParams, response: { 200: cardTransactionListResponseSchema, ...errors } } }, async (request) =>
    transactionsOf(dependencies, customerIdOf(request), request.params.id),
  );

  app.post(
    '/cards/:id/payments',
    {
      preHandler: refuseWhenFrozen(dependencies.db),
      schema: {
        tags,
        description: 'Pays what a credit card owes from checking (Idempotency-Key header required).',
        params: idParams,
        body: cardPaymentRequestSchema,
        response: { 201: cardResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const key = idempotencyKeyFrom(request.headers[idempotencyKeyHeader]);
      const paid = unlessRefused(await payCard(dependencies, customerActorOf(request), request.params.id, request.body, key));
      return reply.status(201).send({ card: paid.card });
    },
  );
}
