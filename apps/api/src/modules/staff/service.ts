import QRCode from 'qrcode';
import { authMessages } from '@strongroom/contracts/auth.ts';
import { rolePermissions, type StaffEnrolment, type StaffLoginRequest, type StaffMeResponse, type StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { decrypt, encrypt } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { hashPassword, isCommonPassword, spendVerificationTime, verifyPassword } from '../../platform/passwords.ts';
import { endAllSessions } from '../../platform/session.ts';
import type { StaffPrincipal } from '../../platform/staff-auth.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../../platform/totp.ts';
import { blockedForSeconds, clearFailures, consecutiveFailures, recordFailure, throttlePolicy, type ThrottleKey } from '../../platform/login-throttle.ts';
import {
  countActiveAdmins,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  normalizeStaffEmail,
  replaceTotpSecret,
  setStaffDisabled,
  setStaffRole,
  spendTotpStep,
  updateStaffPassword,
} from './repository.ts';

export interface StaffDependencies {
  db: Database;
  config: Pick<Config, 'bankName' | 'secrets'>;
}

export interface StaffRequestMeta {
  ip: string;
  requestId: string;
  userAgent?: string;
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

/** Creates a staff member with a new authenticator secret (argon2id password, secret sealed with AES-256-GCM). */
export async function createStaffMember(
  dependencies: StaffDependencies,
  input: { email: string; password: string; role: StaffRole; createdBy?: string },
): Promise<StaffEnrolment> {
  refuseCommonStaffPassword(input.password);
  const secret = newTotpSecret();
  const id = await insertStaff(dependencies.db, {
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: input.role,
    totpSecretEncrypted: sealSecret(dependencies.config, secret),
    createdBy: input.createdBy,
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

function loginAudit(meta: StaffRequestMeta, entry: Pick<AuditEntry, 'outcome' | 'actorId' | 'details'>): AuditEntry {
  return {
    actorType: entry.outcome === 'success' ? 'staff' : 'anonymous',
    action: 'staff.login',
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
    ...entry,
  };
}

/**
 * Staff sign-in: email, password and the authenticator's current code, all three or nothing (the
 * answer does not say which was wrong). Throttled as customers are, on keys of its own. A code is
 * accepted within one step of now and only once: a replayed code fails even inside its window.
 */
export async function staffLogIn(
  dependencies: StaffDependencies,
  input: StaffLoginRequest,
  meta: StaffRequestMeta,
  nowMs: number = Date.now(),
): Promise<string> {
  const { db } = dependencies;
  const accountKey: ThrottleKey = `account:staff:${normalizeStaffEmail(input.email)}`;
  const ipKey: ThrottleKey = `ip:${meta.ip}`;
  const waitSeconds = await blockedForSeconds(db, [accountKey, ipKey]);
  if (waitSeconds > 0) {
    await recordAudit(db, loginAudit(meta, { outcome: 'denied', details: { reason: 'throttled' } }));
    throw new AppError('rate_limited', authMessages.tooManyAttempts, { retryAfterSeconds: waitSeconds });
  }
  if ((await consecutiveFailures(db, accountKey)) >= throttlePolicy.failuresBeforeRecoveryRequired) {
    throw new AppError('forbidden', 'Too many failed sign-ins. Ask an administrator to reset your sign-in.');
  }
  const staff = await findStaffByEmail(db, input.email);
  const passwordMatches = staff ? await verifyPassword(staff.password_hash, input.password) : await spendVerificationTime(input.password);
  const step = staff && passwordMatches ? matchTotp(openSecret(dependencies.config, staff.totp_secret_encrypted), input.code, nowMs) : undefined;
  const fresh = staff && step !== undefined ? await spendTotpStep(db, staff.id, step) : false;
  if (!staff || !passwordMatches || !fresh) {
    await recordFailure(db, accountKey, throttlePolicy.account);
    await recordFailure(db, ipKey, throttlePolicy.ip);
    const reason = !staff ? 'unknown_email' : !passwordMatches ? 'wrong_password' : step === undefined ? 'wrong_code' : 'replayed_code';
    await recordAudit(db, loginAudit(meta, { outcome: 'failure', actorId: staff?.id, details: { reason } }));
    throw new AppError('unauthenticated', wrongStaffCredentials);
  }
  if (staff.disabled_at) {
    await recordAudit(db, loginAudit(meta, { outcome: 'denied', actorId: staff.id, details: { reason: 'disabled' } }));
    throw new AppError('forbidden', 'This staff account is disabled. Ask an administrator.');
  }
  await clearFailures(db, accountKey);
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
  member: StaffPrincipal,
  input: { currentPassword: string; password: string },
  audit: (entry: Pick<AuditEntry, 'action' | 'outcome' | 'details'>) => AuditEntry,
): Promise<void> {
  const staff = await findStaffById(dependencies.db, member.id);
  if (!staff || !(await verifyPassword(staff.password_hash, input.currentPassword))) {
    await recordAudit(dependencies.db, audit({ action: 'staff.password_change', outcome: 'failure', details: { reason: 'wrong_current_password' } }));
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { currentPassword: 'Your current password is not correct' } });
  }
  refuseCommonStaffPassword(input.password);
  await updateStaffPassword(dependencies.db, member.id, await hashPassword(input.password));
  await endAllSessions(dependencies.db, 'staff', member.id, member.sessionIdHash);
  await recordAudit(dependencies.db, audit({ action: 'staff.password_change', outcome: 'success' }));
}

export type StaffChange = { kind: 'disable' } | { kind: 'enable' } | { kind: 'role'; role: StaffRole } | { kind: 'reset_second_factor' };

/**
 * An administrator's change to another staff member, with its reason, audited. Nobody changes
 * their own role or access (an admin cannot lock the bank out by accident), and the last active
 * admin cannot be demoted or disabled.
 */
export async function changeStaffMember(
  dependencies: StaffDependencies,
  actor: StaffPrincipal,
  targetId: string,
  change: StaffChange,
  reason: string,
  audit: (entry: Pick<AuditEntry, 'action' | 'subject' | 'outcome' | 'details'>) => AuditEntry,
): Promise<StaffEnrolment | undefined> {
  const { db, config } = dependencies;
  const target = await findStaffById(db, targetId);
  if (!target) throw new AppError('not_found', 'No such staff member');
  if (target.id === actor.id) throw new AppError('conflict', 'You cannot change your own access; ask another administrator');
  const removesAdmin = target.role === 'admin' && !target.disabled_at && (change.kind === 'disable' || (change.kind === 'role' && change.role !== 'admin'));
  if (removesAdmin && (await countActiveAdmins(db)) <= 1) throw new AppError('conflict', 'This is the last active administrator');
  let result: StaffEnrolment | undefined;
  const details: Record<string, string> = { reason };
  if (change.kind === 'disable' || change.kind === 'enable') {
    const changed = await setStaffDisabled(db, target.id, change.kind === 'disable');
    if (!changed) throw new AppError('conflict', change.kind === 'disable' ? 'This staff member is already disabled' : 'This staff member is already active');
    if (change.kind === 'disable') await endAllSessions(db, 'staff', target.id);
  } else if (change.kind === 'role') {
    const previous = await setStaffRole(db, target.id, change.role);
    if (!previous) throw new AppError('conflict', `This staff member already has the role ${change.role}`);
    details.from = previous;
    details.to = change.role;
    await endAllSessions(db, 'staff', target.id);
  } else {
    const secret = newTotpSecret();
    await replaceTotpSecret(db, target.id, sealSecret(config, secret));
    await endAllSessions(db, 'staff', target.id);
    result = await enrolment(config, target, secret);
  }
  await recordAudit(db, audit({ action: `staff.${change.kind === 'role' ? 'role_change' : change.kind}`, subject: target.id, outcome: 'success', details }));
  return result;
}
