import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createDataRecipientSchema,
  dataRecipientListSchema,
  dataRecipientResponseSchema,
  recipientStatusChangeSchema,
  updateDataRecipientSchema,
} from '@strongroom/contracts/connected-apps.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { createRecipient, replaceRecipient, setRecipientStatus, staffRecipient, staffRecipients } from './recipients.ts';

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ['staff'];

function notFound(): AppError {
  return new AppError('not_found', 'No such connected app');
}

/** The back office's connected apps (`connected_apps.manage`: administrators), issue 38 item 2. */
export function dataRecipientStaffRoutes(dependencies: ConnectedAppsDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const manage = { preValidation: permit(db, 'connected_apps.manage') };

    app.get('/staff/data-recipients', { ...manage, schema: { tags, response: { 200: dataRecipientListSchema, ...errors } } }, async () => ({
      items: await staffRecipients(dependencies),
    }));

    app.get(
      '/staff/data-recipients/:id',
      { ...manage, schema: { tags, params: idParams, response: { 200: dataRecipientResponseSchema, ...errors } } },
      async (request) => {
        const recipient = await staffRecipient(dependencies, request.params.id);
        if (!recipient) throw notFound();
        return { recipient };
      },
    );

    app.post(
      '/staff/data-recipients',
      { ...manage, schema: { tags, body: createDataRecipientSchema, response: { 201: dataRecipientResponseSchema, ...errors } } },
      async (request, reply) => reply.status(201).send({ recipient: await createRecipient(dependencies, request.body, staffActorOf(request)) }),
    );

    app.put(
      '/staff/data-recipients/:id',
      { ...manage, schema: { tags, params: idParams, body: updateDataRecipientSchema, response: { 200: dataRecipientResponseSchema, ...errors } } },
      async (request) => {
        const recipient = await replaceRecipient(dependencies, request.params.id, request.body, staffActorOf(request));
        if (!recipient) throw notFound();
        return { recipient };
      },
    );

    for (const [action, enabled] of [
      ['disable', false],
      ['enable', true],
    ] as const) {
      app.post(
        `/staff/data-recipients/:id/${action}`,
        { ...manage, schema: { tags, params: idParams, body: recipientStatusChangeSchema, response: { 200: dataRecipientResponseSchema, ...errors } } },
        async (request) => {
          const recipient = await setRecipientStatus(dependencies, request.params.id, enabled, request.body.reason, staffActorOf(request));
          if (!recipient) throw notFound();
          return { recipient };
        },
      );
    }
  };
}
