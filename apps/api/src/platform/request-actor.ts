import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { AuditEntry } from './audit.ts';
import { customerIdOf } from './customer-session.ts';
import { staffOf } from './staff-member.ts';

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

/** Who acted and from where, as an audit entry records them. */
export type AuditActor = Pick<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>;

/** What was done, to what, and how it went: the rest of an audit entry. */
export type AuditAction = Omit<AuditEntry, keyof AuditActor>;

function auditActorFrom(origin: RequestOrigin, who: Pick<AuditEntry, 'actorType' | 'actorId'>): AuditActor {
  return { ...who, ip: origin.ip, userAgent: origin.userAgent, requestId: origin.requestId };
}

/** The "who and from where" of an audit entry of `actor`'s action: a customer or a staff member, with the request's origin. */
export function auditActorOf(actor: RequestActor): AuditActor {
  return auditActorFrom(actor, 'staffId' in actor ? { actorType: 'staff', actorId: actor.staffId } : { actorType: 'customer', actorId: actor.customerId });
}

/** An audit entry of `actor`'s action: who (customer or staff) and from where, filled in from the actor. */
export function auditEntryOf(actor: RequestActor, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  return { ...auditActorOf(actor), ...entry };
}

/**
 * An audit entry of an action from `origin` by someone who is not a signed-in actor: anonymous (a
 * sign-in attempt, a link followed; `actorId` names whom it concerns when one is known), or known
 * by id only (a sign-out, by the session it ends). A signed-in actor's action is `auditEntryOf`'s.
 */
export function auditEntryFrom(origin: RequestOrigin, who: Pick<AuditEntry, 'actorType' | 'actorId'>, entry: AuditAction): AuditEntry {
  return { ...auditActorFrom(origin, who), ...entry };
}
