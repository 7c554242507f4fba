import QRCode from 'qrcode';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { securityMessages, type ChangePasswordRequest, type CustomerSession, type TotpEnrolment, type TotpStatus } from '@strongroom/contracts/security.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { hashPassword, isCommonPassword, verifyPassword } from '../../platform/passwords.ts';
import {
  checkCustomerTotp,
  newRecoveryCodes,
  replaceRecoveryCodes,
  sealTotpSecret,
  unusedRecoveryCodes,
  type SecondFactorKeys,
} from '../../platform/second-factors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { endAllSessions } from '../../platform/session.ts';
import { accountChangeStepUp, consumeStepUp, requireStepUp, type StepUpDependencies } from '../step-up/service.ts';
import { newTotpSecret, otpauthUri } from '../../platform/totp.ts';
import { describeUserAgent } from '../auth/service.ts';
import { findCustomerById, updatePasswordHash } from '../customers/service.ts';

/**
 * The Security part of Settings (issue 15, docs/decisions/029): the customer's sessions, their
 * password, and their authenticator app with its recovery codes. Every change is an audit row
 * (the security timeline reads them); the password, the app's enrolment and its removal are
 * behind a step-up (D10, ASVS 7.5.1), which a frozen customer may still complete.
 */
export interface SecurityDependencies {
  db: Database;
  mailer: Mailer;
  config: Pick<Config, 'bankName' | 'secrets'>;
  stepUp: StepUpDependencies;
}

/**
 * The signed-in customer with the session the request came with: ending sessions and changing the
 * password end the customer's other sessions, never this one.
 */
export type SessionActor = CustomerActor & {
  /** The hash of the session this request came with. */
  sessionIdHash: Buffer;
};

function keysOf(dependencies: SecurityDependencies): SecondFactorKeys {
  return { encryptionKey: dependencies.config.secrets.encryptionKey, hashKey: dependencies.config.secrets.sessionSecret };
}

/** 'an unknown browser' -> 'Unknown browser', 'a browser on Linux' -> 'Browser on Linux'. */
function deviceName(userAgent: string | null): string {
  const words = describeUserAgent(userAgent ?? undefined).replace(/^an? /, '');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// --- Sessions ---------------------------------------------------------------------------------

const idleTimeoutMs = businessConstants.sessionIdleTimeoutMs;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The customer's live sessions (not ended, not idle or too old), this one first, then the latest seen. */
export async function listSessions(db: Queryable, actor: Pick<SessionActor, 'customerId' | 'sessionIdHash'>): Promise<CustomerSession[]> {
  const rows = await db.query<{ public_id: string; current: boolean; user_agent: string | null; ip: string | null; created_at: Date; last_seen_at: Date }>(
    `SELECT public_id, id_hash = $2 AS current, user_agent, ip, created_at, last_seen_at
       FROM sessions
      WHERE realm = 'customer' AND subject_id = $1 AND ended_at IS NULL AND absolute_expires_at > now()
        AND last_seen_at > now() - make_interval(secs => $3::double precision / 1000)
      ORDER BY (id_hash = $2) DESC, last_seen_at DESC, created_at DESC`,
    [actor.customerId, actor.sessionIdHash, idleTimeoutMs],
  );
  return rows.map((row) => ({
    id: row.public_id,
    current: row.current,
    device: deviceName(row.user_agent),
    ip: row.ip,
    createdAt: row.created_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
  }));
}

/**
 * Ends one of the customer's sessions. Another customer's or an unknown id is 404 not_found, like a
 * missing one. Ending the current session signs this browser out, as signing out does
 * (`current: true`; the route clears the cookies).
 */
export async function endCustomerSession(db: Database, actor: SessionActor, sessionId: string): Promise<{ current: boolean }> {
  if (!uuidPattern.test(sessionId)) throw notFound('This session was not found.');
  const ended = await db.transaction(async (tx) => {
    const rows = await tx.query<{ current: boolean }>(
      `UPDATE sessions SET ended_at = now()
        WHERE public_id = $1 AND realm = 'customer' AND subject_id = $2 AND ended_at IS NULL
        RETURNING id_hash = $3 AS current`,
      [sessionId, actor.customerId, actor.sessionIdHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.session_ended', outcome: 'success', subject: sessionId, details: { current: row.current } }));
    return row;
  });
  if (!ended) throw notFound('This session was not found.');
  return { current: ended.current };
}

/** Ends every session of the customer but this one. */
export async function revokeOtherSessions(db: Database, actor: SessionActor): Promise<number> {
  return db.transaction(async (tx) => {
    const count = await endAllSessions(tx, 'customer', actor.customerId, actor.sessionIdHash);
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.sessions_revoked', outcome: 'success', details: { ended: count } }));
    return count;
  });
}

// --- Step-up for account changes --------------------------------------------------------------

export type AccountChange = 'password-change' | 'totp-enrol' | 'totp-remove' | 'email-change' | 'phone-change' | 'address-change';

const changePurpose: Record<AccountChange, string> = {
  'password-change': 'changing your password',
  'totp-enrol': 'adding an authenticator app',
  'totp-remove': 'removing your authenticator app',
  'email-change': 'changing your email address',
  'phone-change': 'changing your phone number',
  'address-change': 'changing your postal address',
};

/**
 * Runs `change` inside the transaction that spends the verified challenge; without one, or when it
 * cannot be spent, answers a new challenge (403 step_up_required). It is answered with a factor the
 * customer already has, however recent the sign-in; the contact-details module uses it too.
 */
export async function withStepUp<T>(
  dependencies: SecurityDependencies,
  actor: CustomerActor,
  change: AccountChange,
  stepUpChallengeId: string | undefined,
  apply: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const challenge = accountChangeStepUp(actor, change, changePurpose[change]);
  if (!stepUpChallengeId) return requireStepUp(dependencies.stepUp, challenge);
  const outcome = await dependencies.db.transaction(async (tx) => {
    if (!(await consumeStepUp(tx, actor.customerId, stepUpChallengeId, challenge.idempotencyKey, challenge.requestHash))) return { spent: false as const };
    return { spent: true as const, value: await apply(tx) };
  });
  if (!outcome.spent) return requireStepUp(dependencies.stepUp, challenge);
  return outcome.value;
}

// --- Password ---------------------------------------------------------------------------------

/**
 * Changes the password (ASVS 7.4.3, D5, D10): the current one must be right (a field error, checked
 * before any step-up so a wrong one costs no SMS), the new one follows sign-up's rules, every other
 * session ends, an email tells the customer.
 */
export async function changePassword(
  dependencies: SecurityDependencies,
  actor: SessionActor,
  input: ChangePasswordRequest,
  stepUpChallengeId: string | undefined,
): Promise<{ otherSessionsEnded: number }> {
  const { db } = dependencies;
  const customer = await findCustomerById(db, actor.customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  if (!(await verifyPassword(customer.password_hash, input.currentPassword))) {
    await recordAudit(
      db,
      auditEntryOf(actor, { action: 'customer.password_change_failed', outcome: 'failure', details: { reason: 'wrong_current_password' } }),
    );
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { currentPassword: securityMessages.wrongCurrentPassword } });
  }
  if (isCommonPassword(input.password)) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { password: 'this password is too common' } });
  }
  if (input.password === input.currentPassword) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { password: securityMessages.samePassword } });
  }
  const passwordHash = await hashPassword(input.password);
  const ended = await withStepUp(dependencies, actor, 'password-change', stepUpChallengeId, async (tx) => {
    await updatePasswordHash(tx, actor.customerId, passwordHash);
    const count = await endAllSessions(tx, 'customer', actor.customerId, actor.sessionIdHash);
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.password_changed', outcome: 'success', details: { otherSessionsEnded: count } }));
    return count;
  });
  await dependencies.mailer.send({
    to: customer.email,
    subject: `Your ${dependencies.config.bankName} password was changed`,
    text:
      `Hello ${customer.first_name},\n\nThe password of your ${dependencies.config.bankName} account was changed on ${new Date().toUTCString()} ` +
      `from ${deviceName(actor.userAgent ?? null)}. ${ended === 0 ? 'No other device was signed in.' : `We signed out your ${ended} other ${ended === 1 ? 'session' : 'sessions'}.`}\n\n` +
      `If you did not change it, reset your password now from the sign-in page and contact us.\n\n${dependencies.config.bankName}`,
  });
  return { otherSessionsEnded: ended };
}

// --- Authenticator app ------------------------------------------------------------------------

export async function totpStatus(db: Queryable, customerId: string): Promise<TotpStatus> {
  const [row] = await db.query<{ confirmed_at: Date }>('SELECT confirmed_at FROM customer_totp WHERE customer_id = $1 AND confirmed_at IS NOT NULL', [
    customerId,
  ]);
  return {
    enrolled: row !== undefined,
    enrolledAt: row ? row.confirmed_at.toISOString() : null,
    recoveryCodesLeft: row ? await unusedRecoveryCodes(db, customerId) : 0,
  };
}

/**
 * Starts an enrolment: a new secret, sealed, unconfirmed until a code from the app confirms it.
 * An app answers every later step-up, so adding one is itself behind a step-up answered with a
 * factor the customer already has (the SMS code to their verified phone, or a passkey), however
 * recently they signed in (docs/decisions/052). A sign-in proves only the
 * password, and a password (or a mailbox, through a reset) must never be enough to add a factor
 * that then confirms payments. A customer who already has a confirmed app removes it first (409).
 * Starting again replaces an unconfirmed one.
 */
export async function startTotpEnrolment(
  dependencies: SecurityDependencies,
  actor: CustomerActor,
  stepUpChallengeId: string | undefined,
): Promise<TotpEnrolment> {
  const { db } = dependencies;
  if ((await totpStatus(db, actor.customerId)).enrolled) {
    throw new AppError('conflict', 'An authenticator app is already set up. Remove it first to set up another.');
  }
  const customer = await findCustomerById(db, actor.customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  const secret = newTotpSecret();
  const started = await withStepUp(dependencies, actor, 'totp-enrol', stepUpChallengeId, async (tx) => {
    const rows = await tx.query(
      `INSERT INTO customer_totp (customer_id, secret_encrypted) VALUES ($1, $2)
       ON CONFLICT (customer_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted, last_step = 0, created_at = now()
         WHERE customer_totp.confirmed_at IS NULL
       RETURNING 1`,
      [actor.customerId, sealTotpSecret(keysOf(dependencies), secret)],
    );
    if (rows.length === 0) return false;
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.totp_enrolment_started', outcome: 'success', details: { reauthenticatedBy: 'step_up' } }));
    return true;
  });
  if (!started) throw new AppError('conflict', 'An authenticator app is already set up. Remove it first to set up another.');
  const uri = otpauthUri({ secret, issuer: dependencies.config.bankName, account: customer.email });
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, otpauthUri: uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Confirms the enrolment with a code from the app (a wrong or already used code is a field error)
 * and answers the ten recovery codes, this once; only their keyed hashes are kept.
 */
export async function confirmTotp(dependencies: SecurityDependencies, actor: CustomerActor, code: string): Promise<{ recoveryCodes: string[] }> {
  const keys = keysOf(dependencies);
  const recoveryCodes = newRecoveryCodes();
  const outcome = await dependencies.db.transaction(async (tx) => {
    const [pending] = await tx.query('SELECT 1 FROM customer_totp WHERE customer_id = $1 AND confirmed_at IS NULL FOR UPDATE', [actor.customerId]);
    if (!pending) return 'none' as const;
    const check = await checkCustomerTotp(tx, keys, actor.customerId, code, { pending: true });
    if (check !== 'accepted') return check;
    await tx.query('UPDATE customer_totp SET confirmed_at = now() WHERE customer_id = $1', [actor.customerId]);
    await replaceRecoveryCodes(tx, keys, actor.customerId, recoveryCodes);
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.totp_enrolled', outcome: 'success' }));
    return 'accepted' as const;
  });
  if (outcome === 'none') throw new AppError('conflict', 'There is no authenticator app being set up. Start again.');
  if (outcome !== 'accepted') {
    await recordAudit(dependencies.db, auditEntryOf(actor, { action: 'customer.totp_enrolment_failed', outcome: 'failure', details: { reason: outcome } }));
    const message =
      outcome === 'replayed'
        ? 'This code was already used: wait for the next one your app shows.'
        : 'That code is not right. Check the time on your phone and try the next one.';
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { code: message } });
  }
  const customer = await findCustomerById(dependencies.db, actor.customerId);
  if (customer) {
    await dependencies.mailer.send({
      to: customer.email,
      subject: `An authenticator app was added to your ${dependencies.config.bankName} account`,
      text: `Hello ${customer.first_name},\n\nAn authenticator app was added to your account on ${new Date().toUTCString()}. From now on it confirms your payments; a text message remains a fallback.\n\nIf you did not add it, contact us now.\n\n${dependencies.config.bankName}`,
    });
  }
  return { recoveryCodes };
}

/** Removes the app and its recovery codes, behind a step-up; the customer is told by email. */
export async function removeTotp(dependencies: SecurityDependencies, actor: CustomerActor, stepUpChallengeId: string | undefined): Promise<void> {
  const { db } = dependencies;
  if (!(await totpStatus(db, actor.customerId)).enrolled) throw notFound('No authenticator app is set up.');
  const removed = await withStepUp(dependencies, actor, 'totp-remove', stepUpChallengeId, async (tx) => {
    const rows = await tx.query('DELETE FROM customer_totp WHERE customer_id = $1 RETURNING 1', [actor.customerId]);
    await tx.query('DELETE FROM customer_recovery_codes WHERE customer_id = $1', [actor.customerId]);
    if (rows.length === 0) return false;
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.totp_removed', outcome: 'success' }));
    return true;
  });
  if (!removed) throw notFound('No authenticator app is set up.');
  const customer = await findCustomerById(db, actor.customerId);
  if (customer) {
    await dependencies.mailer.send({
      to: customer.email,
      subject: `The authenticator app was removed from your ${dependencies.config.bankName} account`,
      text: `Hello ${customer.first_name},\n\nThe authenticator app was removed from your account on ${new Date().toUTCString()}. Codes for payments now come by text message.\n\nIf you did not remove it, contact us now.\n\n${dependencies.config.bankName}`,
    });
  }
}
