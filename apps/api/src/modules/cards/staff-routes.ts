import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authorizationOutcomeResponseSchema,
  authorizationResponseSchema,
  cardDecisionRequestSchema,
  cardTransactionListResponseSchema,
  staffAuthorizationListQuerySchema,
  staffAuthorizationRequestSchema,
  staffCardListQuerySchema,
  staffCardListSchema,
  staffCardResponseSchema,
  staffClearAuthorizationRequestSchema,
  staffReverseAuthorizationRequestSchema,
} from '@strongroom/contracts/cards.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { transactionsOfCard } from './authorizations.ts';
import type { CardDependencies } from './card-dependencies.ts';
import { decideCardRequest, staffCardPage } from './card-decisions.ts';
import { simulateAuthorization, simulateClearing, simulateReversal } from './card-simulator.ts';
import { unlessRefused } from './refusals.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** The back office's card queue (`cards.decide`, issue 13): the list with each customer's standing, and the decision, exactly once. */
export function cardStaffRoutes(dependencies: CardDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'cards.decide') };

    app.get(
      '/staff/cards',
      { ...guarded, schema: { tags: ['staff'], querystring: staffCardListQuerySchema, response: { 200: staffCardListSchema, ...errors } } },
      async (request) => staffCardPage(dependencies, request.query.status, request.query.cursor),
    );

    app.post(
      '/staff/cards/:id/decision',
      {
        ...guarded,
        schema: { tags: ['staff'], params: idParams, body: cardDecisionRequestSchema, response: { 200: staffCardResponseSchema, ...errors } },
      },
      async (request) => {
        const decided = unlessRefused(await decideCardRequest(dependencies, staffActorOf(request), request.params.id, request.body));
        return { card: decided.card };
      },
    );
  };
}

/**
 * The console's card network simulator (sandbox only; `payments.settle`): fires the same
 * authorisations, clearings and reversals as `/dev/card-network/*`, with the stored card's number.
 */
export function cardSimulatorStaffRoutes(dependencies: CardDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'payments.settle') };

    app.post(
      '/staff/card-simulator/authorizations',
      { ...guarded, schema: { tags: ['staff'], body: staffAuthorizationRequestSchema, response: { 201: authorizationResponseSchema, ...errors } } },
      async (request, reply) => reply.status(201).send({ authorization: await simulateAuthorization(dependencies, staffActorOf(request), request.body) }),
    );

    app.post(
      '/staff/card-simulator/authorizations/:id/clear',
      {
        ...guarded,
        schema: {
          tags: ['staff'],
          params: idParams,
          body: staffClearAuthorizationRequestSchema,
          response: { 200: authorizationOutcomeResponseSchema, ...errors },
        },
      },
      async (request) => {
        const cleared = unlessRefused(await simulateClearing(dependencies, staffActorOf(request), request.params.id, request.body));
        return cleared.answer;
      },
    );

    app.post(
      '/staff/card-simulator/authorizations/:id/reverse',
      {
        ...guarded,
        schema: {
          tags: ['staff'],
          params: idParams,
          body: staffReverseAuthorizationRequestSchema,
          response: { 200: authorizationOutcomeResponseSchema, ...errors },
        },
      },
      async (request) => {
        const reversed = unlessRefused(await simulateReversal(dependencies, staffActorOf(request), request.params.id, request.body));
        return reversed.answer;
      },
    );

    app.get(
      '/staff/card-simulator/authorizations',
      {
        ...guarded,
        schema: { tags: ['staff'], querystring: staffAuthorizationListQuerySchema, response: { 200: cardTransactionListResponseSchema, ...errors } },
      },
      async (request) => transactionsOfCard(dependencies, request.query.cardId),
    );
  };
}
