import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { roleHas, rolePermissions, type StaffPermission, type StaffRole } from '@strongroom/contracts/staff.ts';
import type { Queryable } from '../db/database.ts';
import { recordAudit, type AuditEntry } from './audit.ts';
import { staffSessionCookieName } from './cookie-names.ts';
import { refreshCsrfCookie } from './csrf.ts';
import { AppError } from './errors.ts';
import { resolveSession } from './session.ts';

/**
 * The staff realm's guard (docs/product.md D16): a staff route needs a live staff session (its own
 * cookie; a customer's cookie is not one) of a staff member who is not disabled, and each route
 * names the permission it needs, checked against the contract's role matrix on every request, so
 * a role change or a disabled account takes effect at once.
 */
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

export function decorateStaffSessions(app: FastifyInstance): void {
  app.decorateRequest('staffMember', null);
}

/**
 * Runs before validation (preValidation), as `permit` does: a request without a staff session or
 * the permission is refused as such, whatever its body, and learns nothing of the route's schema.
 */
export function requireStaff(scope: FastifyInstance, db: Queryable): void {
  scope.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    const sessionId = request.cookies[staffSessionCookieName(request)];
    const session = sessionId ? await resolveSession(db, sessionId, 'staff') : undefined;
    const [member] = session
      ? await db.query<{ id: string; email: string; role: StaffRole }>('SELECT id, email, role FROM staff WHERE id = $1 AND disabled_at IS NULL', [
          session.subjectId,
        ])
      : [];
    if (!sessionId || !session || !member) throw new AppError('unauthenticated', 'Please sign in to the back office to continue');
    request.staffMember = { ...member, sessionIdHash: session.idHash };
    refreshCsrfCookie(request, reply, sessionId, 'staff');
  });
}

/** The staff member of a guarded request; calling it outside a guarded scope is a defect. */
export function staffOf(request: FastifyRequest): StaffPrincipal {
  if (!request.staffMember) throw new Error('staffOf called on a route without requireStaff');
  return request.staffMember;
}

export function permissionsOf(role: StaffRole): StaffPermission[] {
  return [...rolePermissions[role]];
}

/** An audit entry of a staff member's action, with the request's address, agent and id. */
export function staffAudit(request: FastifyRequest, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  return {
    actorType: 'staff',
    actorId: staffOf(request).id,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    requestId: request.id,
    ...entry,
  };
}

/**
 * A route's permission: `{ preValidation: permit(db, 'identity.decide') }`. It runs after
 * `requireStaff` and before the body is validated; a role without the permission answers 403
 * `forbidden` and is audited.
 */
export function permit(db: Queryable, permission: StaffPermission): preValidationAsyncHookHandler {
  return async (request) => {
    const member = staffOf(request);
    if (roleHas(member.role, permission)) return;
    await recordAudit(
      db,
      staffAudit(request, {
        action: 'staff.permission_denied',
        subject: `${request.method} ${request.routeOptions.url ?? request.url}`,
        outcome: 'denied',
        details: { permission, role: member.role },
      }),
    );
    throw new AppError('forbidden', 'Your role does not allow this');
  };
}
