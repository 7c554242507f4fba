import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName, secureStaffCsrfCookieName, staffCsrfCookieName } from '@strongroom/contracts/http.ts';
import type { Queryable } from '../db/database.ts';
import { recordAudit } from './audit.ts';
import { equalHashes, keyedHash } from './crypto.ts';
import { AppError } from './errors.ts';
import { realmOfRoute, sessionCookieNameFor } from './cookie-names.ts';
import { auditEntryFrom, originOf } from './request-actor.ts';

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

/** Whether a session cookie names a live session of the realm (platform/session.ts decides; it imports this file). */
export type LiveSessionCheck = (sessionId: string, realm: Realm) => Promise<boolean>;

/** The API's routes; other unsafe routes (the ops door) take a bearer token, not a cookie. */
const apiRoutePrefix = '/api/';

/**
 * CSRF (D2, ASVS 3.5.1, decision 019): an unsafe API request that carries a live session's cookie
 * must carry `X-CSRF-Token` equal to the HMAC of that session's id. Another site can neither read
 * the cookie that holds it nor compute it, and a cookie it manages to plant proves nothing, because
 * the token is checked against the session, not against the cookie. A mismatch answers 403 before
 * any handler runs, so nothing changes. Staff routes (`/api/v1/staff/`) check the staff session's
 * cookie instead: each realm's token is bound to its own session (D16).
 *
 * Which route, and so which realm, is the one the router matched, not the URL as sent: the router
 * decodes the path, so `POST /%61pi/v1/transfers` runs the transfer route, and a test of the raw
 * URL let every percent-encoded spelling through (issue 30, item 3; decision 049). A request that
 * matched no route only reaches the not-found answer, which changes nothing.
 *
 * A request whose cookie names no live session (it ended, expired, or never was one) has no
 * authority for another site to borrow: the guarded routes answer it 401 whatever it sends, and
 * the public ones (sign-in, sign-up, password reset) act on no session. So it needs no token, and
 * a stale cookie no longer blocks signing in again (issue 30, item 13). The session is looked up
 * only when the token does not match, so a request that sends its token costs nothing more. A
 * browser with a live session still needs the token on every route, sign-in included, so another
 * site cannot sign it in to an account of the attacker's choosing (login CSRF) any more than before.
 */
export function registerCsrfProtection(app: FastifyInstance, db: Queryable, secret: Buffer, isLiveSession: LiveSessionCheck): void {
  app.decorate('csrfTokenFor', (sessionId: string) => csrfTokenFor(secret, sessionId));
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!unsafeMethods.has(request.method) || route === undefined || !route.startsWith(apiRoutePrefix)) return;
    const realm = realmOfRoute(route);
    const sessionId = request.cookies[sessionCookieNameFor(request, realm)];
    if (!sessionId) return;
    if (headerMatches(csrfTokenFor(secret, sessionId), request.headers[csrfHeaderName])) return;
    if (!(await isLiveSession(sessionId, realm))) return;
    await recordAudit(db, auditEntryFrom(originOf(request), { actorType: 'anonymous' }, { action: 'csrf.rejected', subject: route, outcome: 'denied' }));
    throw new AppError('forbidden', 'The request is missing its CSRF token; reload the page and try again');
  });
}
