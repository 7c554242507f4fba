import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { connectedAppListSchema } from '@strongroom/contracts/connected-apps.ts';
import { customerIdOf, requireCustomer } from '../../platform/authenticate.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { notFound } from '../../platform/errors.ts';
import { customerActorOf } from '../../platform/request-actor.ts';
import { listCustomerConsents, revokeCustomerConsent } from './consents.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';

export const consentNotFound = 'No such connected app';

/** A consent id in a path: any short string, so a malformed one answers 404 like an unknown one, not 400. */
const consentParams = z.object({ consentId: z.string().max(64) });

/**
 * Settings, "Connected apps" (PRODUCT.md section 7; docs/connected-apps.md): `GET /me/connected-apps`
 * lists the signed-in customer's consents in force, `DELETE /me/connected-apps/{consentId}` ends one at once.
 */
export function connectedAppMeRoutes(dependencies: ConnectedAppsDependencies): FastifyPluginAsyncZod {
  return async (app) => {
    requireCustomer(app, dependencies.db);

    app.get(
      '/me/connected-apps',
      { schema: { tags: ['connected-apps'], response: { 200: connectedAppListSchema, ...errorResponses(401) } } },
      async (request) => ({ items: await listCustomerConsents(dependencies, customerIdOf(request)) }),
    );

    app.delete(
      '/me/connected-apps/:consentId',
      { schema: { tags: ['connected-apps'], params: consentParams, response: { 204: z.null(), ...errorResponses(401, 403, 404) } } },
      async (request, reply) => {
        if (!(await revokeCustomerConsent(dependencies, customerActorOf(request), request.params.consentId))) throw notFound(consentNotFound);
        return reply.status(204).send(null);
      },
    );
  };
}
