import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationListSchema, type NotificationList } from '@strongroom/contracts/notifications.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { deleteNotification, markNotificationsRead, notificationList } from './service.ts';

/** The customer's notifications: read, mark read, delete. Writing them is platform/notify.ts. */
export function notificationRoutes(dependencies: { db: Database; liveEvents: LiveEvents }): FastifyPluginAsyncZod {
  const { db, liveEvents } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get(
      '/notifications',
      { schema: { tags: ['notifications'], response: { 200: notificationListSchema, ...errorResponses(401) } } },
      async (request): Promise<NotificationList> => notificationList(db, customerIdOf(request)),
    );

    app.post(
      '/notifications/read',
      { schema: { tags: ['notifications'], response: { 204: z.null(), ...errorResponses(401, 403) } } },
      async (request, reply) => {
        await markNotificationsRead(db, liveEvents, customerIdOf(request));
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/notifications/:id',
      {
        schema: {
          tags: ['notifications'],
          // Any string: a malformed id answers 404 like an unknown one, not 400.
          params: z.object({ id: z.string() }),
          response: { 204: z.null(), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteNotification(db, liveEvents, customerIdOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
