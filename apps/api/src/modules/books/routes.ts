import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BooksDependencies } from './dependencies.ts';
import { bookAdjustmentRoutes } from './adjustment-routes.ts';
import { bookReportRoutes } from './report-routes.ts';

/** The back office's books (docs/books.md): the reports (`books.read`), closed days and adjusting entries (`books.adjust`). */
export function booksRoutes(dependencies: BooksDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(bookReportRoutes(dependencies));
    await app.register(bookAdjustmentRoutes(dependencies));
  };
}

/** Every ledger transfer is dated in the bank's time zone (migration 0050): the app writes it at start. */
export { syncBooksTimeZone } from './close.ts';
