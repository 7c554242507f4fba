import type { FastifyInstance } from 'fastify';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { connectRoutes } from './connect-routes.ts';
import { connectedAppMeRoutes } from './me-routes.ts';
import { dataRecipientStaffRoutes } from './staff-routes.ts';

/** The bank's own API for connected apps, under /api/v1: the consent page's, Settings' and the back office's routes. */
export function connectedAppRoutes(dependencies: ConnectedAppsDependencies) {
  return async function routes(app: FastifyInstance): Promise<void> {
    void app;
    void dependencies;
    await app.register(connectRoutes(dependencies));
    await app.register(connectedAppMeRoutes(dependencies));
    await app.register(dataRecipientStaffRoutes(dependencies));
  };
}
