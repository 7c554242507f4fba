import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { csrfCookieName, csrfHeaderName } from '@strongroom/contracts/http.ts';
import type { Queryable } from '../db/database.ts';
import { recordAudit } from './audit.ts';
import { AppError } from './errors.ts';
import { sessionCookieName } from './session.ts';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function tokensMatch(cookie: string | undefined, header: string | string[] | undefined): boolean {
  if (!cookie || typeof header !== 'string' || header.length === 0) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Double-submit CSRF (D2, ASVS 3.5.1): an unsafe API request that carries a session cookie must
 * also carry `X-CSRF-Token` equal to the `csrf` cookie, which another site can neither read nor
 * set. A request without a session has no authority to forge, so sign-in and sign-up need no
 * token. A mismatch answers 403 before any handler runs, so nothing changes.
 */
export function registerCsrfProtection(app: FastifyInstance, db: Queryable): void {
  app.addHook('onRequest', async (request) => {
    if (!unsafeMethods.has(request.method) || !request.url.startsWith('/api/')) return;
    if (!request.cookies[sessionCookieName(request)]) return;
    if (tokensMatch(request.cookies[csrfCookieName], request.headers[csrfHeaderName])) return;
    await recordAudit(db, {
      actorType: 'anonymous',
      action: 'csrf.rejected',
      subject: request.routeOptions.url ?? 'unmatched',
      outcome: 'denied',
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      requestId: request.id,
    });
    throw new AppError('forbidden', 'The request is missing its CSRF token; reload the page and try again');
  });
}
