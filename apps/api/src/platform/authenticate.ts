import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { sessionCookieNameFor } from './cookie-names.ts';
import { refreshCsrfCookie } from './csrf.ts';
import { AppError } from './errors.ts';
import { resolveSession, type Session, type SessionRealm } from './session.ts';

export { customerIdOf } from './customer-session.ts';

export function decorateSessions(app: FastifyInstance): void {
  app.decorateRequest('customerSession', null);
}

/**
 * A realm's guard of every route registered in `scope`, before validation: the request's session
 * cookie of `realm` must name a live session that `admit` accepts (it records who signed in on the
 * request and answers true), or the route answers 401 `unauthenticated` with `refusal`; an admitted
 * request gets its CSRF cookie renewed.
 */
export function requireSession(
  scope: FastifyInstance,
  db: Queryable,
  realm: SessionRealm,
  refusal: string,
  admit: (request: FastifyRequest, session: Session) => Promise<boolean>,
): void {
  scope.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = request.cookies[sessionCookieNameFor(request, realm)];
    const session = sessionId ? await resolveSession(db, sessionId, realm) : undefined;
    if (!sessionId || !session || !(await admit(request, session))) throw new AppError('unauthenticated', refusal);
    refreshCsrfCookie(request, reply, sessionId, realm);
  });
}

/**
 * Guards every route registered in `scope`: no live customer session, no handler (401). Register
 * it inside an encapsulated plugin so it applies only to the routes that need it.
 */
export function requireCustomer(scope: FastifyInstance, db: Queryable): void {
  requireSession(scope, db, 'customer', 'Please sign in to continue', async (request, session) => {
    request.customerSession = session;
    return true;
  });
}
