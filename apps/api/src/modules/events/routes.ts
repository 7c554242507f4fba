import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { maxStreamsPerCustomer, type LiveEvents } from '../../platform/live-events.ts';

/**
 * A comment line this often keeps proxies (which drop a connection silent for 30 to 60 s) from
 * closing the stream, and lets the server notice a client that went away.
 */
export const heartbeatIntervalMs = 25_000;
/** How long a browser waits before it reconnects a dropped stream. */
export const reconnectDelayMs = 5_000;

/**
 * `GET /events`: a server-sent event stream telling the signed-in customer's page which of its
 * data changed (docs/product.md section 5, contracts/notifications.ts). An event carries a topic name
 * only, never the data: the page refetches it through the ordinary, authenticated endpoints.
 */
export function eventRoutes(dependencies: { db: Database; liveEvents: LiveEvents }): FastifyPluginAsyncZod {
  const { db, liveEvents } = dependencies;
  /** Each customer's open streams, oldest first (a Set keeps insertion order); each entry ends its stream. */
  const openStreams = new Map<string, Set<() => void>>();

  return async (app) => {
    requireCustomer(app, db);

    // A stream never ends by itself: end them all, or closing the server would wait for them.
    app.addHook('preClose', async () => {
      for (const streams of openStreams.values()) for (const end of [...streams]) end();
    });

    app.get(
      '/events',
      {
        schema: {
          tags: ['events'],
          response: {
            200: {
              description: 'Server-sent events: `event: change` with a topic (accounts, notifications) as data',
              content: { 'text/event-stream': { schema: z.string() } },
            },
            ...errorResponses(401),
          },
        },
      },
      async (request, reply) => {
        const customerId = customerIdOf(request);
        // The stream is written by hand, so the onSend hooks (request id, no-store) do not run:
        // their headers are set here. Helmet's headers are already on reply.raw (onRequest).
        reply.header('content-type', 'text/event-stream; charset=utf-8');
        reply.header('cache-control', 'no-store');
        reply.header('x-accel-buffering', 'no');
        reply.header('x-content-type-options', 'nosniff');
        reply.header('x-request-id', request.id);
        reply.hijack();
        const response = reply.raw;
        // The client may have gone while its session was looked up: then 'close' has fired already.
        if (request.raw.socket.destroyed) return;
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
        response.writeHead(200);
        response.write(`: connected\nretry: ${reconnectDelayMs}\n\n`);

        const unsubscribe = liveEvents.subscribe(customerId, (topic) => {
          response.write(`event: change\ndata: ${topic}\n\n`);
        });
        const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), heartbeatIntervalMs);
        heartbeat.unref();
        let streams = openStreams.get(customerId);
        if (!streams) {
          streams = new Set();
          openStreams.set(customerId, streams);
        }
        const customerStreams = streams;

        let stopped = false;
        const stop = () => {
          if (stopped) return;
          stopped = true;
          clearInterval(heartbeat);
          unsubscribe();
          customerStreams.delete(end);
          if (customerStreams.size === 0 && openStreams.get(customerId) === customerStreams) openStreams.delete(customerId);
        };
        function end() {
          stop();
          response.end();
        }
        response.once('close', stop);
        customerStreams.add(end);
        // Beyond the limit the oldest stream ends (a forgotten tab); its page reconnects if still open.
        for (const oldest of customerStreams) {
          if (customerStreams.size <= maxStreamsPerCustomer) break;
          oldest();
        }
      },
    );
  };
}
