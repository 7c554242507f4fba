import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { billerRequestSchema, staffBillerListSchema, staffBillerResponseSchema } from '@strongroom/contracts/billers.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { createBiller, replaceBiller, staffBillers, type BillerDependencies } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);

/** The back office's biller directory (`billers.manage`: operations and administrators), issue 33 item 1. */
export function billerStaffRoutes(dependencies: BillerDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const manage = { preValidation: permit(db, 'billers.manage') };

    app.get('/staff/billers', { ...manage, schema: { tags: ['staff'], response: { 200: staffBillerListSchema, ...errors } } }, async () => ({
      items: await staffBillers(db),
    }));

    app.post(
      '/staff/billers',
      { ...manage, schema: { tags: ['staff'], body: billerRequestSchema, response: { 201: staffBillerResponseSchema, ...errors } } },
      async (request, reply) => reply.status(201).send({ biller: await createBiller(dependencies, request.body, staffActorOf(request)) }),
    );

    app.put(
      '/staff/billers/:id',
      { ...manage, schema: { tags: ['staff'], params: idParams, body: billerRequestSchema, response: { 200: staffBillerResponseSchema, ...errors } } },
      async (request) => {
        const biller = await replaceBiller(dependencies, request.params.id, request.body, staffActorOf(request));
        if (!biller) throw new AppError('not_found', 'No such biller');
        return { biller };
      },
    );
  };
}
