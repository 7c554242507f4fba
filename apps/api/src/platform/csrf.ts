import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName, secureStaffCsrfCookieName, staffCsrfCookieName } from '@strongroom/contracts/http.ts';
import type { Queryable } from '../db/database.ts';
import { recordAudit } from './audit.ts';
import { equalHashes, keyedHash } from './crypto.ts';
import { AppError } from './errors.ts';
import { realmOfUrl, sessionCookieNameFor } from './cookie-names.ts';

type Realm = 'customer' | 'staff';

declare module 'fastify' {
  interface FastifyInstance {
    /** The CSRF token of a session: what its csrf cookie holds and its unsafe requests must send. */
    csrfTokenFor(sessionId: string): string;
  }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Keeps this use of the session secret apart from its others (codes, receipt references). */
const csrfPurpose = 'csrf:';

/** HMAC-SHA256 of the session id under the server's session secret, base64url (decision 019). */
export function csrfTokenFor(secret: Buffer, sessionId: string): string {
  return keyedHash(secret, `${csrfPurpose}${sessionId}`).toString('base64url');
}

export function csrfCookieNameFor(request: FastifyRequest, realm: Realm = 'customer'): string {
  if (realm === 'staff') return request.protocol === 'https' ? secureStaffCsrfCookieName : staffCsrfCookieName;
  return request.protocol === 'https' ? secureCsrfCookieName : csrfCookieName;
}

/** The page reads the token from this cookie; it is not HttpOnly on purpose (D2). */
export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string, realm: Realm = 'customer'): void {
  const secure = request.protocol === 'https';
  reply.setCookie(csrfCookieNameFor(request, realm), request.server.csrfTokenFor(sessionId), { path: '/', httpOnly: false, sameSite: 'lax', secure });
}

export function clearCsrfCookie(request: FastifyRequest, reply: FastifyReply, realm: Realm = 'customer'): void {
  reply.clearCookie(csrfCookieNameFor(request, realm), { path: '/', sameSite: 'lax', secure: request.protocol === 'https' });
}

/**
 * A session from before decision 019 carries a random csrf cookie, which no longer passes: a
 * guarded request of a live session gets the derived one, so an upgrade locks nobody out (the
 * web's first request after a reload is a GET of /me).
 */
export function refreshCsrfCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string, realm: Realm = 'customer'): void {
  if (request.cookies[csrfCookieNameFor(request, realm)] !== request.server.csrfTokenFor(sessionId)) setCsrfCookie(request, reply, sessionId, realm);
}

function headerMatches(expected: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || header.length === 0) return false;
  return equalHashes(Buffer.from(expected), Buffer.from(header));
}

/**
 * CSRF (D2, ASVS 3.5.1, decision 019): an unsafe API request that carries a session cookie must
 * carry `X-CSRF-Token` equal to the HMAC of that session's id. Another site can neither read the
 * cookie that holds it nor compute it, and a cookie it manages to plant proves nothing, because
 * the token is checked against the session, not against the cookie. A request without a session
 * has no authority to forge, so sign-in and sign-up need no token. A mismatch answers 403 before
 * any handler runs, so nothing changes. Staff routes (`/api/v1/staff/`) check the staff session's
 * cookie instead: each realm's token is bound to its own session (D16).
 */
export function registerCsrfProtection(app: FastifyInstance, db: Queryable, secret: Buffer): void {
  app.decorate('csrfTokenFor', (sessionId: string) => csrfTokenFor(secret, sessionId));
  app.addHook('onRequest', async (request) => {
    if (!unsafeMethods.has(request.method) || !request.url.startsWith('/api/')) return;
    const sessionId = request.cookies[sessionCookieNameFor(request, realmOfUrl(request.url))];
    if (!sessionId) return;
    if (headerMatches(csrfTokenFor(secret, sessionId), request.headers[csrfHeaderName])) return;
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
