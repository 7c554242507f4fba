import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { roleHas, rolePermissions, type StaffPermission, type StaffRole } from '@strongroom/contracts/staff.ts';
import type { Queryable } from '../db/database.ts';
import { recordAudit } from './audit.ts';
import { requireSession } from './authenticate.ts';
import { AppError } from './errors.ts';
import { auditEntryOf, staffActorOf } from './request-actor.ts';
import { staffOf } from './staff-member.ts';

export { staffOf, type StaffPrincipal } from './staff-member.ts';

export function decorateStaffSessions(app: FastifyInstance): void {
  app.decorateRequest('staffMember', null);
}

/**
 * The staff realm's guard (docs/product.md D16): a staff route needs a live staff session (its own
 * cookie; a customer's cookie is not one) of a staff member who is not disabled, and each route
 * names the permission it needs, checked against the contract's role matrix on every request, so
 * a role change or a disabled account takes effect at once.
 *
 * Runs before validation (preValidation), as `permit` does: a request without a staff session or
 * the permission is refused as such, whatever its body, and learns nothing of the route's schema.
 */
export function requireStaff(scope: FastifyInstance, db: Queryable): void {
  requireSession(scope, db, 'staff', 'Please sign in to the back office to continue', async (request, session) => {
    const [member] = await db.query<{ id: string; email: string; role: StaffRole }>('SELECT id, email, role FROM staff WHERE id = $1 AND disabled_at IS NULL', [
      session.subjectId,
    ]);
    if (!member) return false;
    request.staffMember = { ...member, sessionIdHash: session.idHash };
    return true;
  });
}

export function permissionsOf(role: StaffRole): StaffPermission[] {
  return [...rolePermissions[role]];
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
      auditEntryOf(staffActorOf(request), {
        action: 'staff.permission_denied',
        subject: `${request.method} ${request.routeOptions.url ?? request.url}`,
        outcome: 'denied',
        details: { permission, role: member.role },
      }),
    );
    throw new AppError('forbidden', 'Your role does not allow this');
  };
}
