import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { refreshCsrfCookie } from './csrf.ts';
import { AppError } from './errors.ts';
import { resolveSession, sessionCookieName, type Session } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in customer's session; set by `requireCustomer` on the routes it guards. */
    customerSession: Session | null;
  }
}

export function decorateSessions(app: FastifyInstance): void {
  app.decorateRequest('customerSession', null);
}

/**
 * Guards every route registered in `scope`: no live customer session, no handler (401). Register
 * it inside an encapsulated plugin so it applies only to the routes that need it.
 */
export function requireCustomer(scope: FastifyInstance, db: Queryable): void {
  scope.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = request.cookies[sessionCookieName(request)];
    const session = sessionId ? await resolveSession(db, sessionId, 'customer') : undefined;
    if (!sessionId || !session) throw new AppError('unauthenticated', 'Please sign in to continue');
    request.customerSession = session;
    refreshCsrfCookie(request, reply, sessionId);
  });
}

/** The customer id of a guarded request; calling it outside a guarded scope is a defect. */
export function customerIdOf(request: FastifyRequest): string {
  if (!request.customerSession) throw new Error('customerIdOf called on a route without requireCustomer');
  return request.customerSession.subjectId;
}
