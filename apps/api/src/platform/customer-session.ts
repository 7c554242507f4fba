import type { FastifyRequest } from 'fastify';
import type { Session } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in customer's session; set by `requireCustomer` on the routes it guards. */
    customerSession: Session | null;
  }
}

/**
 * The customer id of a guarded request; calling it outside a guarded scope is a defect. Apart from
 * the guard (platform/authenticate.ts), as staff-member.ts is from the staff guard, so that
 * request-actor.ts reads it without importing the guards.
 */
export function customerIdOf(request: FastifyRequest): string {
  if (!request.customerSession) throw new Error('customerIdOf called on a route without requireCustomer');
  return request.customerSession.subjectId;
}
