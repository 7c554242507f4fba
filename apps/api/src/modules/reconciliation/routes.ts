import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bankStatementListResponseSchema,
  bankStatementResponseSchema,
  exceptionListResponseSchema,
  exceptionResponseSchema,
  importStatementRequestSchema,
  listCursorField,
  resolveExceptionRequestSchema,
} from '@strongroom/contracts/books.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { originOf, staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import type { ReconciliationDependencies } from './dependencies.ts';
import { findException, listExceptions, resolveException } from './exceptions.ts';
import { importStatement, listBankStatements } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 422);
/** The JSON body of an upload: the contract's 2,000,000 characters of BAI2 text, escaped. */
const statementBodyLimitBytes = 3 * 1024 * 1024;
const statementListLimit = 100;
const exceptionListQuerySchema = z.object({
  status: z.enum(['open', 'resolved'], { error: 'choose open or resolved' }).optional(),
  cursor: listCursorField,
});

/** The back office's reconciliation with the settlement bank (`reconciliation.manage`; docs/books.md, "Reconciliation"). */
export function reconciliationRoutes(dependencies: ReconciliationDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const manage = { preValidation: permit(db, 'reconciliation.manage') };
    const tags = ['staff'];

    app.post(
      '/staff/reconciliation/statements',
      {
        ...manage,
        bodyLimit: statementBodyLimitBytes,
        schema: { tags, body: importStatementRequestSchema, response: { 201: bankStatementResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const actor = staffActorOf(request);
        const { fileName, content, reason } = request.body;
        const importedBy = { actorType: 'staff' as const, actorId: actor.staffId, origin: originOf(request), reason };
        const outcome = await importStatement(dependencies, { fileName, content }, importedBy);
        if (outcome.kind === 'already_imported') throw new AppError('already_imported', 'This statement file was imported before');
        if (outcome.kind === 'invalid') {
          const message = outcome.line === null ? outcome.message : `line ${outcome.line}: ${outcome.message}`;
          throw new AppError('validation_failed', `The statement was not imported: ${message}`, { fields: { content: message } });
        }
        return reply.status(201).send({ statement: outcome.statement });
      },
    );

    app.get('/staff/reconciliation/statements', { ...manage, schema: { tags, response: { 200: bankStatementListResponseSchema, ...errors } } }, async () => ({
      items: await listBankStatements(db, statementListLimit),
    }));

    app.get(
      '/staff/reconciliation/exceptions',
      { ...manage, schema: { tags, querystring: exceptionListQuerySchema, response: { 200: exceptionListResponseSchema, ...errors } } },
      async (request) => listExceptions(db, request.query),
    );

    app.get(
      '/staff/reconciliation/exceptions/:id',
      { ...manage, schema: { tags, params: idParams, response: { 200: exceptionResponseSchema, ...errors } } },
      async (request) => {
        const exception = await findException(db, request.params.id);
        if (!exception) throw new AppError('not_found', 'No such exception');
        return { exception };
      },
    );

    app.post(
      '/staff/reconciliation/exceptions/:id/resolve',
      {
        ...manage,
        schema: {
          tags,
          params: idParams,
          body: resolveExceptionRequestSchema,
          response: { 200: exceptionResponseSchema, 202: exceptionResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const outcome = await resolveException(dependencies, request.params.id, request.body, staffActorOf(request));
        switch (outcome.kind) {
          case 'resolved':
            return reply.status(200).send({ exception: outcome.exception });
          case 'awaiting_approval':
            return reply.status(202).send({ exception: outcome.exception });
          case 'not_found':
            throw new AppError('not_found', 'No such exception');
          case 'already_resolved':
            throw new AppError('already_resolved', outcome.message);
          case 'invalid':
            throw new AppError('validation_failed', outcome.message, { fields: { [outcome.field]: outcome.message } });
          case 'business_day_closed':
            throw new AppError('business_day_closed', `${outcome.day} is closed: a correction is booked on an open day (after ${outcome.closedThrough})`);
        }
      },
    );
  };
}

/** What end of day runs after each business day (the app wires it): the sandbox's statement of the day, imported. */
export { sandboxStatementAfterDay } from './simulator.ts';
