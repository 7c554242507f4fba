import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@strongroom/contracts/staff.ts';

/** The signed-in staff member of a request guarded by `requireStaff` (platform/staff-auth.ts). */
export interface StaffPrincipal {
  id: string;
  email: string;
  role: StaffRole;
  sessionIdHash: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in staff member; set by `requireStaff` on the routes it guards. */
    staffMember: StaffPrincipal | null;
  }
}

/**
 * The staff member of a guarded request; calling it outside a guarded scope is a defect. Apart from
 * the guard, so that request-actor.ts reads it and the guard audits with request-actor.ts's
 * `auditEntryOf` without an import cycle.
 */
export function staffOf(request: FastifyRequest): StaffPrincipal {
  if (!request.staffMember) throw new Error('staffOf called on a route without requireStaff');
  return request.staffMember;
}
