/**
 * What other modules use of connected apps (strongroom/module-boundaries: a module reaches another
 * only through its service.ts): the FDX resource API resolves a request's access here, and the
 * sandbox's budgeting app is registered here.
 */
export type { ConnectedAppsDependencies } from './dependencies.ts';
export { authorizationServerRoutes, createAuthorizationServer, type AuthorizationServer } from './oauth/server.ts';
export { connectedAppRoutes } from './routes.ts';
export { OAuthResourceError, requireScope, resolveFdxAccess, type FdxAccess } from './resource-access.ts';
export { findRecipientByClientId, upsertRecipient, type RecipientRow } from './recipients-repository.ts';
export { registerConnectedAppJobs } from './sweeps.ts';
