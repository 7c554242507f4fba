import QRCode from 'qrcode';
import type { z } from 'zod';
import { authMessages } from '@strongroom/contracts/auth.ts';
import {
  rolePermissions,
  type CreateStaffRequest,
  type StaffEnrolment,
  type staffListResponseSchema,
  type StaffLoginRequest,
  type StaffMeResponse,
  type StaffRole,
} from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { hashPassword, isCommonPassword, spendVerificationTime, verifyPassword } from '../../platform/passwords.ts';
import { endAllSessions } from '../../platform/session.ts';
import { auditEntryFrom, auditEntryOf, type RequestOrigin, type StaffActor } from '../../platform/request-actor.ts';
import type { StaffPrincipal } from '../../platform/staff-auth.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../../platform/totp.ts';
import { reserveSignInAttempt, settleSucceededAttempt, type ThrottleKey } from '../../platform/login-throttle.ts';
import {
  countActiveAdmins,
  findStaffByEmail,
  findStaffById,
  insertAccessGrant,
  insertStaff,
  listStaff,
  lockStaffChanges,
  normalizeStaffEmail,
  replaceTotpSecret,
  setStaffDisabled,
  setStaffRole,
  spendTotpStep,
  updateStaffPassword,
  type StaffAccessGrant,
} from './repository.ts';

export interface StaffDependencies {
  db: Database;
  config: Pick<Config, 'bankName' | 'secrets'>;
}

export class StaffExistsError extends Error {
  constructor(email: string) {
    super(`A staff member with the email ${email} already exists`);
    this.name = 'StaffExistsError';
  }
}

export const wrongStaffCredentials = 'Email, password or code is not correct';

function sealSecret(config: StaffDependencies['config'], secret: string): Buffer {
  return encrypt(config.secrets.encryptionKey, Buffer.from(secret, 'utf8'));
}

function openSecret(config: StaffDependencies['config'], sealed: Buffer): string {
  return decrypt(config.secrets.encryptionKey, Buffer.from(sealed)).toString('utf8');
}

/** What a new member's authenticator needs, shown once: the secret, its otpauth:// URI and a QR code of it. */
async function enrolment(config: StaffDependencies['config'], staff: { id: string; email: string; role: StaffRole }, secret: string): Promise<StaffEnrolment> {
  const uri = otpauthUri({ secret, issuer: config.bankName, account: staff.email });
  return {
    staffId: staff.id,
    role: staff.role,
    totpSecret: secret,
    otpauthUri: uri,
    qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }),
  };
}

export function refuseCommonStaffPassword(password: string): void {
  if (isCommonPassword(password)) throw new AppError('validation_failed', 'Some fields are not valid', { fields: { password: 'this password is too common' } });
}

/**
 * Creates a staff member with a new authenticator secret (argon2id password, secret sealed with
 * AES-256-GCM), and records who granted the access in the same transaction (decision 050): no
 * member exists whose granter four eyes could miss. `createdBy` is absent when no staff member
 * creates it (the operator's create-staff, the sandbox's admin); `audit` is written in the same commit.
 */
export async function createStaffMember(
  dependencies: StaffDependencies,
  input: { email: string; password: string; role: StaffRole; createdBy?: string },
  audit?: (staffId: string) => AuditEntry,
): Promise<StaffEnrolment> {
  refuseCommonStaffPassword(input.password);
  const secret = newTotpSecret();
  const passwordHash = await hashPassword(input.password);
  const id = await dependencies.db.transaction(async (tx) => {
    const staffId = await insertStaff(tx, {
      email: input.email,
      passwordHash,
      role: input.role,
      totpSecretEncrypted: sealSecret(dependencies.config, secret),
      createdBy: input.createdBy,
    });
    if (!staffId) return undefined;
    await insertAccessGrant(tx, { staffId, grantedBy: input.createdBy ?? null, kind: 'created' });
    if (audit) await recordAudit(tx, audit(staffId));
    return staffId;
  });
  if (!id) throw new StaffExistsError(input.email.trim());
  return enrolment(dependencies.config, { id, email: input.email.trim(), role: input.role }, secret);
}

/** The current code of a staff member's authenticator: the sandbox admin's sign-in offers it. */
export async function currentCodeOf(
  dependencies: StaffDependencies,
  email: string,
  atMs: number,
  code: (secret: string, atMs: number) => string,
): Promise<string | undefined> {
  const staff = await findStaffByEmail(dependencies.db, email);
  return staff && !staff.disabled_at ? code(openSecret(dependencies.config, staff.totp_secret_encrypted), atMs) : undefined;
}

function loginAudit(meta: RequestOrigin, { actorId, ...entry }: Pick<AuditEntry, 'outcome' | 'actorId' | 'details'>): AuditEntry {
  return auditEntryFrom(meta, { actorType: entry.outcome === 'success' ? 'staff' : 'anonymous', actorId }, { action: 'staff.login', ...entry });
}

/**
 * Staff sign-in: email, password and the authenticator's current code, all three or nothing (the
 * answer does not say which was wrong). Throttled as customers are, on keys of its own. A code is
 * accepted within one step of now and only once: a replayed code fails even inside its window.
 */
export async function staffLogIn(dependencies: StaffDependencies, input: StaffLoginRequest, meta: RequestOrigin, nowMs: number = Date.now()): Promise<string> {
  const { db } = dependencies;
  const accountKey: ThrottleKey = `account:staff:${normalizeStaffEmail(input.email)}`;
  const ipKey: ThrottleKey = `ip:${meta.ip ?? 'unknown'}`;
  // Counted before anything is checked, so concurrent attempts cannot all pass the throttle (issue 30, item 5).
  const attempt = await reserveSignInAttempt(db, [accountKey, ipKey]);
  if (attempt.outcome === 'throttled') {
    await recordAudit(db, loginAudit(meta, { outcome: 'denied', details: { reason: 'throttled' } }));
    throw new AppError('rate_limited', authMessages.tooManyAttempts, { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  if (attempt.outcome === 'recovery_required') {
    throw new AppError('forbidden', 'Too many failed sign-ins. Ask an administrator to reset your sign-in.');
  }
  const staff = await findStaffByEmail(db, input.email);
  const passwordMatches = staff ? await verifyPassword(staff.password_hash, input.password) : await spendVerificationTime(input.password);
  const step = staff && passwordMatches ? matchTotp(openSecret(dependencies.config, staff.totp_secret_encrypted), input.code, nowMs) : undefined;
  const fresh = staff && step !== undefined ? await spendTotpStep(db, staff.id, step) : false;
  if (!staff || !passwordMatches || !fresh) {
    const reason = !staff ? 'unknown_email' : !passwordMatches ? 'wrong_password' : step === undefined ? 'wrong_code' : 'replayed_code';
    await recordAudit(db, loginAudit(meta, { outcome: 'failure', actorId: staff?.id, details: { reason } }));
    throw new AppError('unauthenticated', wrongStaffCredentials);
  }
  // A disabled member's attempt stays counted: it is refused like a failure.
  if (staff.disabled_at) {
    await recordAudit(db, loginAudit(meta, { outcome: 'denied', actorId: staff.id, details: { reason: 'disabled' } }));
    throw new AppError('forbidden', 'This staff account is disabled. Ask an administrator.');
  }
  await settleSucceededAttempt(db, attempt);
  await recordAudit(db, loginAudit(meta, { outcome: 'success', actorId: staff.id }));
  return staff.id;
}

export function staffMeAnswer(member: Pick<StaffPrincipal, 'id' | 'email' | 'role'>): StaffMeResponse {
  return { staff: { id: member.id, email: member.email, role: member.role, permissions: [...rolePermissions[member.role]] } };
}

export async function staffMeAnswerFor(db: Queryable, staffId: string): Promise<StaffMeResponse> {
  const staff = await findStaffById(db, staffId);
  if (!staff) throw new AppError('unauthenticated', 'Please sign in to the back office to continue');
  return staffMeAnswer(staff);
}

/** A staff member changes their own password: the current one first; their other sessions end. */
export async function changeOwnPassword(
  dependencies: StaffDependencies,
  actor: StaffActor,
  member: Pick<StaffPrincipal, 'sessionIdHash'>,
  input: { currentPassword: string; password: string },
): Promise<void> {
  const staff = await findStaffById(dependencies.db, actor.staffId);
  if (!staff || !(await verifyPassword(staff.password_hash, input.currentPassword))) {
    await recordAudit(
      dependencies.db,
      auditEntryOf(actor, { action: 'staff.password_change', outcome: 'failure', details: { reason: 'wrong_current_password' } }),
    );
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { currentPassword: 'Your current password is not correct' } });
  }
  refuseCommonStaffPassword(input.password);
  await updateStaffPassword(dependencies.db, actor.staffId, await hashPassword(input.password));
  await endAllSessions(dependencies.db, 'staff', actor.staffId, member.sessionIdHash);
  await recordAudit(dependencies.db, auditEntryOf(actor, { action: 'staff.password_change', outcome: 'success' }));
}

export type StaffChange = { kind: 'disable' } | { kind: 'enable' } | { kind: 'role'; role: StaffRole } | { kind: 'reset_second_factor' };

/** What each change grants (decision 050): all but a disable give the member access or more of it, or credentials the admin saw. */
const accessGrantOf: Record<StaffChange['kind'], StaffAccessGrant | undefined> = {
  disable: undefined,
  enable: 'enabled',
  role: 'role_changed',
  reset_second_factor: 'second_factor_reset',
};

/**
 * An administrator's change to another staff member, with its reason, audited. Nobody changes
 * their own role or access (an admin cannot lock the bank out by accident), and the last active
 * admin cannot be demoted or disabled. The change, its grant, the end of the member's sessions and
 * the audit row commit together, under a lock that takes staff changes one at a time: two admins
 * removing each other at once would otherwise both count two admins and leave none.
 */
export async function changeStaffMember(
  dependencies: StaffDependencies,
  actor: StaffActor,
  targetId: string,
  change: StaffChange,
  reason: string,
): Promise<StaffEnrolment | undefined> {
  const { db, config } = dependencies;
  const { target, secret } = await db.transaction(async (tx) => {
    await lockStaffChanges(tx);
    const target = await findStaffById(tx, targetId);
    if (!target) throw new AppError('not_found', 'No such staff member');
    if (target.id === actor.staffId) throw new AppError('conflict', 'You cannot change your own access; ask another administrator');
    const removesAdmin = target.role === 'admin' && !target.disabled_at && (change.kind === 'disable' || (change.kind === 'role' && change.role !== 'admin'));
    if (removesAdmin && (await countActiveAdmins(tx)) <= 1) throw new AppError('conflict', 'This is the last active administrator');
    const details: Record<string, string> = { reason };
    let secret: string | undefined;
    if (change.kind === 'disable' || change.kind === 'enable') {
      const changed = await setStaffDisabled(tx, target.id, change.kind === 'disable');
      if (!changed) throw new AppError('conflict', change.kind === 'disable' ? 'This staff member is already disabled' : 'This staff member is already active');
      if (change.kind === 'disable') await endAllSessions(tx, 'staff', target.id);
    } else if (change.kind === 'role') {
      const previous = await setStaffRole(tx, target.id, change.role);
      if (!previous) throw new AppError('conflict', `This staff member already has the role ${change.role}`);
      details.from = previous;
      details.to = change.role;
      await endAllSessions(tx, 'staff', target.id);
    } else {
      secret = newTotpSecret();
      await replaceTotpSecret(tx, target.id, sealSecret(config, secret));
      await endAllSessions(tx, 'staff', target.id);
    }
    const grant = accessGrantOf[change.kind];
    if (grant) await insertAccessGrant(tx, { staffId: target.id, grantedBy: actor.staffId, kind: grant });
    await recordAudit(
      tx,
      auditEntryOf(actor, { action: `staff.${change.kind === 'role' ? 'role_change' : change.kind}`, subject: target.id, outcome: 'success', details }),
    );
    return { target, secret };
  });
  return secret === undefined ? undefined : enrolment(config, target, secret);
}

/** Staff as administrators see them (`staff.manage`). */
export async function staffList(db: Queryable): Promise<z.infer<typeof staffListResponseSchema>> {
  return {
    items: (await listStaff(db)).map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      status: row.disabled_at ? ('disabled' as const) : ('active' as const),
      createdAt: row.created_at.toISOString(),
      lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    })),
  };
}

/** An administrator enrols a new staff member, audited with its role and reason in the same commit. */
export async function enrolStaffMember(dependencies: StaffDependencies, actor: StaffActor, request: CreateStaffRequest): Promise<StaffEnrolment> {
  try {
    return await createStaffMember(dependencies, { ...request, createdBy: actor.staffId }, (staffId) =>
      auditEntryOf(actor, { action: 'staff.create', subject: staffId, outcome: 'success', details: { role: request.role, reason: request.reason } }),
    );
  } catch (error) {
    if (error instanceof StaffExistsError) throw new AppError('conflict', 'A staff member with this email already exists');
    throw error;
  }
}

/** A back-office sign-out, audited as the staff member whose session it was, or as anonymous when there was none. */
export async function recordStaffLogout(db: Queryable, origin: RequestOrigin, staffId: string | undefined): Promise<void> {
  await recordAudit(
    db,
    auditEntryFrom(origin, { actorType: staffId ? 'staff' : 'anonymous', actorId: staffId }, { action: 'staff.logout', outcome: 'success' }),
  );
}
