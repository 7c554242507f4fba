import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { productTermsChangeSchema, staffProductListSchema, staffProductResponseSchema } from '@strongroom/contracts/products.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { idParams } from '../../platform/path-parameters.ts';
import { staffActorOf } from '../../platform/request-actor.ts';
import { permit, requireStaff } from '../../platform/staff-auth.ts';
import { scheduleTerms, staffProducts, type ProductDependencies } from './terms-changes.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** The back office's products (`products.edit`), issue 32 item 1. */
export function productStaffRoutes(dependencies: ProductDependencies): FastifyPluginAsyncZod {
  const { db } = dependencies;
  return async (app) => {
    requireStaff(app, db);
    const products = { preValidation: permit(db, 'products.edit') };

    app.get('/staff/products', { ...products, schema: { tags: ['staff'], response: { 200: staffProductListSchema, ...errors } } }, async () =>
      staffProducts(dependencies),
    );

    app.post(
      '/staff/products/:id/terms',
      { ...products, schema: { tags: ['staff'], params: idParams, body: productTermsChangeSchema, response: { 201: staffProductResponseSchema, ...errors } } },
      async (request, reply) => {
        const outcome = await scheduleTerms(dependencies, request.params.id, request.body, staffActorOf(request));
        if (outcome.kind === 'not_found') throw new AppError('not_found', 'No such product');
        if (outcome.kind === 'effective_date_in_past')
          throw new AppError('effective_date_in_past', `New terms take effect after the bank's date (${outcome.bankDate}): a change never rewrites the past`, {
            fields: { effectiveFrom: `choose a date after ${outcome.bankDate}` },
          });
        return reply.status(201).send({ product: outcome.product });
      },
    );
  };
}
