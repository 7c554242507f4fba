import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { lineIdParamsSchema, receiptVerificationSchema } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { requireCustomer } from '../../platform/authenticate.ts';
import { perCustomerRateLimit } from '../../platform/customer-rate-limits.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { receiptFor, verifyReceipt } from './service.ts';

/** Enough for a landlord checking a stack of receipts; far too few to walk a space of 2^100 references. */
export const receiptVerificationsPerMinutePerAddress = 30;
/** Each receipt is a PDF built on request; a person prints a handful. */
export const receiptDownloadsPerMinutePerCustomer = 30;

const errors = errorResponses(400, 401, 404, 429);

/** The receipt of one of the signed-in customer's history lines. */
function customerReceiptRoutes(db: Database, config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, db);
    app.get(
      '/transactions/:id/receipt',
      {
        config: { rateLimit: perCustomerRateLimit({ max: receiptDownloadsPerMinutePerCustomer, timeWindow: '1 minute' }) },
        schema: { tags: ['receipts'], params: lineIdParamsSchema, response: { 200: z.unknown().describe('The receipt (application/pdf)'), ...errors } },
      },
      async (request, reply) => {
        const receipt = await receiptFor(db, config, customerActorOf(request), request.params.id);
        return reply.type('application/pdf').header('content-disposition', `attachment; filename="receipt-${receipt.reference}.pdf"`).send(receipt.pdf);
      },
    );
  };
}

/** Public: whoever holds a receipt (a landlord, an accountant) confirms it without signing in. */
function receiptVerificationRoutes(db: Database): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/receipts/verify/:reference',
      {
        config: { rateLimit: { max: receiptVerificationsPerMinutePerAddress, timeWindow: '1 minute' } },
        schema: { tags: ['receipts'], params: z.object({ reference: z.string().max(64) }), response: { 200: receiptVerificationSchema, ...errors } },
      },
      async (request) => verifyReceipt(db, request.params.reference),
    );
  };
}

export function receiptRoutes(db: Database, config: Config): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(customerReceiptRoutes(db, config));
    await app.register(receiptVerificationRoutes(db));
  };
}
