import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DataScope } from '@strongroom/contracts/connected-apps.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { OAuthResourceError, type ConnectedAppsDependencies, type FdxAccess } from '../connected-apps/service.ts';
import { authorizeFdxRequest, recipientRateLimiter } from './access.ts';
import { fdxAccountDetails, listFdxAccounts } from './accounts.ts';
import { fdxAccountContact } from './contact.ts';
import { FdxError, fdxErrorCodes, invalidParameter } from './errors.ts';
import {
  accountContactSchema,
  accountListSchema,
  accountParamsSchema,
  dateRangeQuerySchema,
  depositAccountSchema,
  fdxErrorSchema,
  pageQuerySchema,
  statementListSchema,
  statementParamsSchema,
  transactionListSchema,
} from './schemas.ts';
import { listFdxStatements, openFdxStatement } from './statements.ts';
import { listFdxTransactions } from './transactions.ts';

const errors = { 400: fdxErrorSchema, 401: fdxErrorSchema, 403: fdxErrorSchema, 404: fdxErrorSchema, 429: fdxErrorSchema, 500: fdxErrorSchema };
const interactionIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sendFdxError(reply: FastifyReply, error: FdxError): FastifyReply {
  if (error.details.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.details.retryAfterSeconds));
  return reply.status(error.status).send(error.body());
}

/** Every failure in FDX's error shape: OAuth's with its WWW-Authenticate challenge, the rest by their FDX code. */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof FdxError) return sendFdxError(reply, error);
  if (error instanceof OAuthResourceError) {
    reply.header('www-authenticate', error.wwwAuthenticate());
    return reply.status(error.status).send({ code: fdxErrorCodes.notAuthorized, message: 'Customer not authorized', debugMessage: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const field = error.validation[0]?.instancePath.replace(/^\//, '') || 'parameter';
    return sendFdxError(reply, invalidParameter(field, `${field} is not valid`));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ code: (error as { code?: unknown }).code }, 'database unavailable');
    return reply.status(503).header('retry-after', '2').send({ code: fdxErrorCodes.subsystemUnavailable, message: 'Subsystem unavailable' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.status(status).send({ code: status, message: 'The request is not valid' });
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ code: fdxErrorCodes.internal, message: 'Internal server error' });
}

/**
 * The FDX 6 resource API at /fdx/v6 (docs/connected-apps.md, "Resource API"): read-only, for data
 * recipients holding a DPoP-bound access token of a customer's consent. Each route checks the
 * token, its cluster's scope and the recipient's allowance before it reads anything, and reads
 * only the consented accounts: any other account id answers exactly like a missing one (701).
 * Answers are never cached (`no-store`) and carry FAPI's `x-fapi-interaction-id`.
 */
export function fdxRoutes(dependencies: ConnectedAppsDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    const count = recipientRateLimiter(dependencies);
    const accessOf = new WeakMap<FastifyRequest, FdxAccess>();
    /** Runs before the query is validated: a request without a good token learns nothing about its parameters. */
    const guard = (scope: DataScope | 'any') => async (request: FastifyRequest) => {
      accessOf.set(request, await authorizeFdxRequest(dependencies, count, request, scope));
    };
    const access = (request: FastifyRequest): FdxAccess => {
      const found = accessOf.get(request);
      if (!found) throw new Error('an FDX route ran without its access check');
      return found;
    };

    app.setErrorHandler(answerError);
    // An address under /fdx/v6 that no route has is the API's 404, never the web app's page (whose
    // static files answer every other GET path).
    const notFound = async (_request: FastifyRequest, reply: FastifyReply) => reply.status(404).send({ code: 404, message: 'Not found' });
    app.setNotFoundHandler(notFound);
    app.get('/*', { schema: { hide: true } }, notFound);
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      // FAPI: the client's interaction id comes back; without one, the bank names the interaction.
      const given = request.headers['x-fapi-interaction-id'];
      reply.header('x-fapi-interaction-id', typeof given === 'string' && interactionIdPattern.test(given) ? given : randomUUID());
      return payload;
    });

    // The FDX API is described by FDX's own specification, not the bank's OpenAPI document (whose
    // conventions, error shape included, are the bank's API's): its routes are hidden from it.
    const tags = ['fdx'];
    const hide = true;
    app.get(
      '/accounts',
      { preValidation: guard('any'), schema: { hide, tags, querystring: pageQuerySchema, response: { 200: accountListSchema, ...errors } } },
      async (request) => listFdxAccounts(dependencies, access(request), request.query),
    );
    app.get(
      '/accounts/:accountId',
      {
        preValidation: guard('fdx:accountdetailed:read'),
        schema: { hide, tags, params: accountParamsSchema, response: { 200: depositAccountSchema, ...errors } },
      },
      async (request) => fdxAccountDetails(dependencies, access(request), request.params.accountId),
    );
    app.get(
      '/accounts/:accountId/transactions',
      {
        preValidation: guard('fdx:transactions:read'),
        schema: { hide, tags, params: accountParamsSchema, querystring: dateRangeQuerySchema, response: { 200: transactionListSchema, ...errors } },
      },
      async (request) => listFdxTransactions(dependencies, access(request), request.params.accountId, request.query),
    );
    app.get(
      '/accounts/:accountId/statements',
      {
        preValidation: guard('fdx:statements:read'),
        schema: { hide, tags, params: accountParamsSchema, querystring: dateRangeQuerySchema, response: { 200: statementListSchema, ...errors } },
      },
      async (request) => listFdxStatements(dependencies, access(request), request.params.accountId, request.query),
    );
    app.get(
      '/accounts/:accountId/statements/:statementId',
      {
        preValidation: guard('fdx:statements:read'),
        schema: { hide, tags, params: statementParamsSchema, response: { 200: z.unknown().describe('The statement, application/pdf'), ...errors } },
      },
      async (request, reply) => {
        const { fileName, pdf } = await openFdxStatement(dependencies, access(request), request.params.accountId, request.params.statementId);
        reply.header('content-type', 'application/pdf');
        reply.header('content-disposition', `attachment; filename="${fileName}"`);
        // A byte stream (not object mode), so that the reply's backpressure is counted in bytes.
        return reply.send(Readable.from(pdf, { objectMode: false }));
      },
    );
    app.get(
      '/accounts/:accountId/contact',
      {
        preValidation: guard('fdx:customercontact:read'),
        schema: { hide, tags, params: accountParamsSchema, response: { 200: accountContactSchema, ...errors } },
      },
      async (request) => fdxAccountContact(dependencies, access(request), request.params.accountId),
    );
  };
}
