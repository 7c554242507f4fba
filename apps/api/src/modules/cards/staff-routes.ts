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
  type StaffCard,
} from '@strongroom/contracts/cards.ts';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import { centsToJson } from '../../platform/money.ts';
import { idParams, isUuid } from '../../platform/path-parameters.ts';
import { permit, requireStaff, staffAudit, staffOf } from '../../platform/staff-auth.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import { cardQueuePageSize, findStaffCard, listStaffCards, type StaffCardRow } from './repository.ts';
import { authorizeStoredCard, clearAuthorization, decideCard, reverseAuthorization, transactionsOfCard, type CardDependencies } from './service.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
};

async function presentStaffCard(dependencies: CardDependencies, row: StaffCardRow): Promise<StaffCard> {
  const accounts = await accountsWithBalances(dependencies.db, row.customer_id, true);
  const available = (type: 'checking' | 'savings') => {
    const account = accounts.find((item) => item.type === type);
    return account ? centsToJson(account.availableCents) : null;
  };
  return {
    id: row.id,
    customerId: row.customer_id,
    customerName: `${row.first_name} ${row.last_name}`,
    customerEmail: row.email,
    type: row.type,
    network: row.network,
    nameOnCard: row.name_on_card,
    last4: row.last4,
    status: row.status,
    standing: {
      identityStatus: row.identity_status ?? 'none',
      checkingAvailableCents: available('checking'),
      savingsAvailableCents: available('savings'),
      customerSince: row.customer_since.toISOString(),
      frozen: row.frozen,
      openCards: row.open_cards,
    },
    creditLimitCents: row.credit_limit_cents === null ? null : centsToJson(BigInt(row.credit_limit_cents)),
    reason: row.decision_reason,
    requestedAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
  };
}

/** The back office's card queue (`cards.decide`, issue 13): the list with each customer's standing, and the decision, exactly once. */
export function cardStaffRoutes(dependencies: CardDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  const staffCardOf = async (id: string) => {
    const row = isUuid(id) ? await findStaffCard(db, id) : undefined;
    if (!row) throw new AppError('not_found', 'No such card');
    return row;
  };
  return async (app) => {
    requireStaff(app, db);
    const guarded = { preValidation: permit(db, 'cards.decide') };

    app.get(
      '/staff/cards',
      { ...guarded, schema: { tags: ['staff'], querystring: staffCardListQuerySchema, response: { 200: staffCardListSchema, ...errors } } },
      async (request) => {
        const { rows, total } = await listStaffCards(db, request.query.status, decodeCursor(request.query.cursor));
        const page = rows.slice(0, cardQueuePageSize);
        const last = page.at(-1);
        return {
          items: await Promise.all(page.map((row) => presentStaffCard(dependencies, row))),
          nextCursor: rows.length > cardQueuePageSize && last ? encodeCursor({ at: last.sort_text, id: last.id }) : null,
          total,
        };
      },
    );

    app.post(
      '/staff/cards/:id/decision',
      {
        ...guarded,
        schema: { tags: ['staff'], params: idParams, body: cardDecisionRequestSchema, response: { 200: staffCardResponseSchema, ...errors } },
      },
      async (request) => {
        const card = await staffCardOf(request.params.id);
        const { decision, reason, creditLimitCents } = request.body;
        if (card.status !== 'pending_approval') throw new AppError('already_decided', 'This card request was already decided');
        if (decision === 'approve' && card.type === 'credit' && creditLimitCents === undefined) {
          const message = 'A credit card needs a credit limit';
          throw new AppError('validation_failed', message, { fields: { creditLimitCents: message } });
        }
        if (creditLimitCents !== undefined && (decision === 'reject' || card.type === 'debit')) {
          const message = decision === 'reject' ? 'A rejection has no credit limit' : 'A debit card has no credit limit';
          throw new AppError('validation_failed', message, { fields: { creditLimitCents: message } });
        }
        const outcome = await decideCard(dependencies, {
          cardId: card.id,
          decision,
          reason,
          creditLimitCents,
          decidedBy: staffOf(request).id,
          audit: (entry) => staffAudit(request, entry),
        });
        if (outcome === 'not_found') throw new AppError('not_found', 'No such card');
        if (outcome === 'already_decided') throw new AppError('already_decided', 'This card request was already decided');
        return { card: await presentStaffCard(dependencies, await staffCardOf(card.id)) };
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
      async (request, reply) => {
        const { reason, ...input } = request.body;
        const authorization = await authorizeStoredCard(dependencies, input, `staff:${staffOf(request).id}`);
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'card_simulator.authorized',
            subject: input.cardId,
            outcome: 'success',
            details: {
              reason,
              authorizationId: authorization.id,
              status: authorization.status,
              declineReason: authorization.declineReason ?? null,
              amountCents: input.amountCents,
              wrongCvv: input.cvv !== undefined,
              wrongExpiry: input.expiry !== undefined,
            },
          }),
        );
        return reply.status(201).send({ authorization });
      },
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
        const outcome = await clearAuthorization(dependencies, request.params.id, request.body.amountCents);
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'card_simulator.cleared',
            subject: request.params.id,
            outcome: 'success',
            details: { reason: request.body.reason, clearedCents: outcome.transaction.clearedCents },
          }),
        );
        return outcome;
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
        const outcome = await reverseAuthorization(dependencies, request.params.id);
        await recordAudit(
          db,
          staffAudit(request, {
            action: 'card_simulator.reversed',
            subject: request.params.id,
            outcome: 'success',
            details: { reason: request.body.reason },
          }),
        );
        return outcome;
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
