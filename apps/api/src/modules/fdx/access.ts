import type { FastifyRequest } from 'fastify';
import type { DataScope } from '@strongroom/contracts/connected-apps.ts';
import { DatabaseRateLimitStore } from '../../platform/rate-limit-store.ts';
import { OAuthResourceError, requireScope, resolveFdxAccess, type ConnectedAppsDependencies, type FdxAccess } from '../connected-apps/service.ts';
import { tooManyRequests } from './errors.ts';

/** A recipient's allowance is counted per minute, over all its customers together (data_recipients.rate_limit_per_minute). */
export const recipientRateWindowMs = 60_000;

/**
 * The per-recipient limit of the resource API. Its counters are the platform's rate-limit counters
 * in the database (platform/rate-limit-store.ts, docs/decisions/042), so the allowance holds
 * across every API process on the database, as the bank's other limits do.
 */
export function recipientRateLimiter(dependencies: Pick<ConnectedAppsDependencies, 'db' | 'clock'>) {
  const store = new DatabaseRateLimitStore(dependencies.db, dependencies.clock, 'fdx recipient');
  return async function count(access: FdxAccess): Promise<void> {
    const { current, ttl } = await store.increment(access.recipientId, recipientRateWindowMs);
    if (current > access.rateLimitPerMinute) throw tooManyRequests(Math.max(1, Math.ceil(ttl / 1000)));
  };
}

/**
 * What every resource request passes first (docs/connected-apps.md, "Resource API"): the token,
 * its DPoP proof and the consent in force behind it (connected-apps' resolveFdxAccess), then the
 * data cluster the route serves (`any`: the list of accounts, which every cluster needs to name
 * an account), then the recipient's allowance: only a request that may read something counts.
 */
export async function authorizeFdxRequest(
  dependencies: ConnectedAppsDependencies,
  count: (access: FdxAccess) => Promise<void>,
  request: FastifyRequest,
  scope: DataScope | 'any',
): Promise<FdxAccess> {
  const access = await resolveFdxAccess(dependencies, request);
  if (scope !== 'any') requireScope(access, scope);
  else if (access.scopes.length === 0) throw new OAuthResourceError(403, 'insufficient_scope', 'this app was given no data');
  await count(access);
  return access;
}
