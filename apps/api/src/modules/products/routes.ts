import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { productListSchema } from '@strongroom/contracts/products.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { listProducts } from './service.ts';

/** `GET /products` (public, docs/product.md section 7): the catalogue as it stands on the bank's date. */
export function productRoutes(dependencies: { db: Queryable; config: Pick<Config, 'bankTimeZone'>; clock?: Clock }): FastifyPluginAsyncZod {
  const { db, config, clock } = dependencies;
  return async (app) => {
    app.get('/products', { schema: { tags: ['products'], response: { 200: productListSchema } } }, async () => {
      const asOf = await bankDate(db, config, clock);
      return { items: await listProducts(db, asOf), asOf };
    });
  };
}
