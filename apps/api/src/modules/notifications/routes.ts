import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { notificationListSchema, notificationPageSize, type NotificationList } from '@strongroom/contracts/notifications.ts';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { notFound } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { countUnreadNotifications, listNotifications, markAllNotificationsRead, softDeleteNotification } from './repository.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer's notifications: read, mark read, delete. Writing them is platform/notify.ts. */
export function notificationRoutes(dependencies: { db: Database; liveEvents: LiveEvents }): FastifyPluginAsyncZod {
  const { db, liveEvents } = dependencies;
  return async (app) => {
    requireCustomer(app, db);

    app.get(
      '/notifications',
      { schema: { tags: ['notifications'], response: { 200: notificationListSchema, 401: errorResponseSchema } } },
      async (request): Promise<NotificationList> => {
        const customerId = customerIdOf(request);
        const [rows, unreadCount] = await Promise.all([listNotifications(db, customerId, notificationPageSize), countUnreadNotifications(db, customerId)]);
        return {
          items: rows.map((row) => ({
            id: row.id,
            kind: row.kind,
            name: row.name,
            text: row.text,
            createdAt: row.created_at.toISOString(),
            read: row.read_at !== null,
            link: row.link,
          })),
          unreadCount,
        };
      },
    );

    app.post(
      '/notifications/read',
      { schema: { tags: ['notifications'], response: { 204: z.null(), 401: errorResponseSchema, 403: errorResponseSchema } } },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        // Other open pages of this customer update their badge.
        if ((await markAllNotificationsRead(db, customerId)) > 0) liveEvents.publish(customerId, 'notifications');
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
          response: { 204: z.null(), 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema },
        },
      },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        const { id } = request.params;
        if (!uuidPattern.test(id) || !(await softDeleteNotification(db, customerId, id))) throw notFound('This notification does not exist');
        liveEvents.publish(customerId, 'notifications');
        return reply.status(204).send(null);
      },
    );
  };
}
