import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { AuditEntry } from './audit.ts';
import { customerIdOf } from './authenticate.ts';
import { staffOf } from './staff-auth.ts';

/** Where a request came from: what an audit entry and a security event record beside who asked. */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
  requestId: string;
}

/** A signed-in customer's request. */
export interface CustomerActor extends RequestOrigin {
  customerId: string;
}

/** A signed-in staff member's request. */
export interface StaffActor extends RequestOrigin {
  staffId: string;
  role: StaffRole;
}

/**
 * Who asked, and from where: the one actor type a route hands its service (a service never reads
 * the request itself). A customer's and a staff member's differ by the id they carry.
 */
export type RequestActor = CustomerActor | StaffActor;

/** The origin of `request`: its address, browser and id. */
export function originOf(request: FastifyRequest): RequestOrigin {
  return { ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id };
}

/** The signed-in customer of a route guarded by requireCustomer. */
export function customerActorOf(request: FastifyRequest): CustomerActor {
  return { customerId: customerIdOf(request), ...originOf(request) };
}

/** The signed-in staff member of a route guarded by requireStaff. */
export function staffActorOf(request: FastifyRequest): StaffActor {
  const member = staffOf(request);
  return { staffId: member.id, role: member.role, ...originOf(request) };
}

/** An audit entry of `actor`'s action: who (customer or staff) and from where, filled in from the actor. */
export function auditEntryOf(actor: RequestActor, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  const who = 'staffId' in actor ? { actorType: 'staff' as const, actorId: actor.staffId } : { actorType: 'customer' as const, actorId: actor.customerId };
  return { ...who, ip: actor.ip, userAgent: actor.userAgent, requestId: actor.requestId, ...entry };
}
