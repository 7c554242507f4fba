import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataExportPath } from '@strongroom/contracts/data-export.ts';
import { requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { openAfterOwnWrite } from '../../platform/read-your-writes.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { startDataExport, type DataExportDependencies } from './service.ts';

const errors = errorResponses(401, 429);

/**
 * `GET /me/export` (docs/product.md section 6): the signed-in customer's own data as a zip, streamed as
 * it is written. A GET changes nothing the customer sees, so it needs no CSRF token and the web
 * downloads it with a plain link; each export is audited and counted against the hourly limit.
 */
export function dataExportRoutes(dependencies: DataExportDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);
    app.get(
      dataExportPath,
      {
        schema: {
          tags: ['profile'],
          response: {
            200: z
              .unknown()
              .describe(
                'A zip (application/zip): README.txt, profile.json, accounts.json, accounts/<number>/transactions.csv (one per account), loans.json, cards.json, linked-banks.json, referrals.json, notifications.json, messages.json, audit.json',
              ),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        // The export may read a replica that has replayed its own audit row, and the zip's later reads stay there (docs/deploy.md).
        const started = await startDataExport(dependencies, customerActorOf(request), (open) => openAfterOwnWrite(reply, dependencies.db, open));
        reply.header('content-type', 'application/zip');
        reply.header('content-disposition', `attachment; filename="${started.fileName}"`);
        reply.header('cache-control', 'no-store');
        // A byte stream (not object mode), so that the reply's backpressure is counted in bytes.
        return reply.send(Readable.from(started.body, { objectMode: false }));
      },
    );
  };
}
