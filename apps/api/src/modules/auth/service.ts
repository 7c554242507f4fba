import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authMessages, type LoginRequest, type SignupRequest } from '@strongroom/contracts/auth.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { insertJob } from '../../platform/jobs/job-repository.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { deviceCookieName } from '../../platform/cookie-names.ts';
import { auditEntryFrom, auditEntryOf, type AuditAction, type RequestOrigin } from '../../platform/request-actor.ts';
import { endAllSessions, startSession } from '../../platform/session.ts';
import { findCustomerByEmail, findCustomerById, insertCustomer, markEmailVerified, normalizeEmail, updatePasswordHash } from '../customers/service.ts';
import { hashPassword, isCommonPassword, spendVerificationTime, verifyPassword } from '../../platform/passwords.ts';
import {
  expireEmailVerifications,
  findCustomerIdByBrowser,
  findLivePasswordReset,
  insertEmailVerification,
  insertPasswordReset,
  lastVerificationSentAt,
  recordSignInDevice,
  useEmailVerification,
  usePasswordReset,
} from './repository.ts';
import { clearFailures, reserveSignInAttempt, settleSucceededAttempt, type ThrottleKey } from '../../platform/login-throttle.ts';
import { describeUserAgent } from './user-agent.ts';
import { recordReferral, referrerOfCode } from '../referrals/service.ts';

/** A User-Agent header in words ("Chrome on Windows"), for other modules' screens: the security timeline and the session list. */
export { describeUserAgent };

export interface AuthDependencies {
  db: Database;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'bankName'>;
  liveEvents: LiveEvents;
}

/** Where a sign-in came from, and the browser's device cookie if it sent one. */
export interface SignInOrigin extends RequestOrigin {
  deviceToken?: string;
}

/** An audit entry of a step by `origin`: the customer's when it is known to be theirs, else anonymous. */
function auditOf(origin: RequestOrigin, customerId: string | undefined, entry: AuditAction): AuditEntry {
  return customerId ? auditEntryOf({ customerId, ...origin }, entry) : auditEntryFrom(origin, { actorType: 'anonymous' }, entry);
}

export const emailVerificationValidMs = 24 * 60 * 60 * 1_000;
export const passwordResetValidMs = 60 * 60 * 1_000;
export const verificationResendIntervalMs = 60 * 1_000;

function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { password: 'this password is too common' } });
  }
}

async function sendVerificationEmail(dependencies: AuthDependencies, to: string, firstName: string, token: string): Promise<void> {
  const link = `${dependencies.config.publicUrl}/verification/${token}`;
  await dependencies.mailer.send({
    to,
    subject: `Verify your email for ${dependencies.config.bankName}`,
    text: `Hello ${firstName},\n\nOpen this link to verify your email address. It works once, for 24 hours:\n\n${link}\n\nIf you did not sign up, ignore this email.\n\n${dependencies.config.bankName}`,
  });
}

/**
 * Sign-up answers the same whether or not the email is taken (ASVS 6.3.8): a new customer gets a
 * verification link; the owner of a taken address gets a note instead. Both paths hash a password
 * and send one email, so neither the answer nor its timing tells them apart. The returned browser
 * token binds the waiting tab's poll to this browser, not to the email in the URL.
 */
export async function signUp(dependencies: AuthDependencies, input: SignupRequest, meta: RequestOrigin): Promise<{ browserToken: string }> {
  refuseCommonPassword(input.password);
  const referrerId = input.referralCode === undefined ? undefined : await referrerOfCode(dependencies.db, input.referralCode);
  const browserToken = randomToken();
  const passwordHash = await hashPassword(input.password);
  const verificationToken = randomToken();
  const customerId = await dependencies.db.transaction(async (tx) => {
    const id = await insertCustomer(tx, {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      passwordHash,
      chosenProduct: input.product,
    });
    if (id) {
      await insertEmailVerification(tx, {
        tokenHash: sha256(verificationToken),
        customerId: id,
        browserHash: sha256(browserToken),
        validForMs: emailVerificationValidMs,
      });
      if (referrerId) await recordReferral(tx, referrerId, id);
    }
    return id;
  });
  if (customerId) {
    await sendVerificationEmail(dependencies, input.email, input.firstName, verificationToken);
  } else {
    await dependencies.mailer.send({
      to: input.email,
      subject: `Someone tried to sign up with your email at ${dependencies.config.bankName}`,
      text: `Hello,\n\nSomeone, perhaps you, tried to open an account with this email address, which already has one. If it was you, sign in at ${dependencies.config.publicUrl}/login, or reset your password at ${dependencies.config.publicUrl}/forgetpassword.\n\nIf it was not you, you can ignore this email: nothing changed.\n\n${dependencies.config.bankName}`,
    });
  }
  await recordAudit(
    dependencies.db,
    auditOf(meta, customerId, {
      action: 'auth.signup',
      outcome: customerId ? 'success' : 'failure',
      details: customerId ? { ...(referrerId ? { referred: true } : {}), ...(input.product ? { product: input.product } : {}) } : { reason: 'email_taken' },
    }),
  );
  return { browserToken };
}

/** The waiting tab's poll: the customer id once this browser's sign-up has its email verified. */
export async function verifiedSignupCustomer(dependencies: AuthDependencies, browserToken: string): Promise<string | undefined> {
  const customerId = await findCustomerIdByBrowser(dependencies.db, sha256(browserToken));
  if (!customerId) return undefined;
  const customer = await findCustomerById(dependencies.db, customerId);
  return customer?.email_verified_at ? customer.id : undefined;
}

/**
 * A fresh link, at most once a minute; the old links stop working. Either for this browser's
 * sign-up (its cookie), or for a signed-in customer whose email is not verified yet, in which case
 * `browserToken` is a new binding for this browser's poll.
 */
export async function resendVerification(dependencies: AuthDependencies, who: { browserToken: string; customerId?: string }): Promise<void> {
  const customerId = who.customerId ?? (await findCustomerIdByBrowser(dependencies.db, sha256(who.browserToken)));
  const customer = customerId ? await findCustomerById(dependencies.db, customerId) : undefined;
  if (!customer) return;
  if (customer.email_verified_at) {
    if (who.customerId) throw new AppError('conflict', 'Your email address is already verified.');
    return;
  }
  const lastSent = await lastVerificationSentAt(dependencies.db, customer.id);
  if (lastSent && Date.now() - lastSent.getTime() < verificationResendIntervalMs) {
    const retryAfterSeconds = Math.ceil((verificationResendIntervalMs - (Date.now() - lastSent.getTime())) / 1_000);
    throw new AppError('rate_limited', 'We just sent a link. Please wait a minute before asking again.', { retryAfterSeconds });
  }
  const token = randomToken();
  await dependencies.db.transaction(async (tx) => {
    await expireEmailVerifications(tx, customer.id);
    await insertEmailVerification(tx, {
      tokenHash: sha256(token),
      customerId: customer.id,
      browserHash: sha256(who.browserToken),
      validForMs: emailVerificationValidMs,
    });
  });
  await sendVerificationEmail(dependencies, customer.email, customer.first_name, token);
}

export async function verifyEmail(dependencies: AuthDependencies, token: string, meta: RequestOrigin): Promise<void> {
  const customerId = await dependencies.db.transaction(async (tx) => {
    const id = await useEmailVerification(tx, sha256(token));
    if (id) await markEmailVerified(tx, id);
    return id;
  });
  await recordAudit(dependencies.db, auditOf(meta, customerId, { action: 'auth.email_verification', outcome: customerId ? 'success' : 'failure' }));
  if (!customerId) throw new AppError('bad_request', authMessages.verificationLinkInvalid);
}

/**
 * Sign-in. A wrong email and a wrong password get the same answer in the same time; failures slow
 * the account and the address down (platform/login-throttle.ts) without locking the real customer
 * out for long. The attempt is counted before the password is checked, so a burst of concurrent
 * attempts gets no more checks than the same attempts one at a time (issue 30, item 5).
 */
export async function logIn(dependencies: AuthDependencies, input: LoginRequest, meta: SignInOrigin): Promise<{ customerId: string; deviceToken: string }> {
  const { db } = dependencies;
  const accountKey: ThrottleKey = `account:${normalizeEmail(input.email)}`;
  const ipKey: ThrottleKey = `ip:${meta.ip ?? 'unknown'}`;
  const attempt = await reserveSignInAttempt(db, [accountKey, ipKey]);
  if (attempt.outcome === 'throttled') {
    await recordAudit(db, auditEntryFrom(meta, { actorType: 'anonymous' }, { action: 'auth.login', outcome: 'denied', details: { reason: 'throttled' } }));
    throw new AppError('rate_limited', authMessages.tooManyAttempts, { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  if (attempt.outcome === 'recovery_required') {
    throw new AppError('forbidden', 'Too many failed sign-ins. Reset your password to continue.');
  }
  const customer = await findCustomerByEmail(db, input.email);
  const passwordMatches = customer ? await verifyPassword(customer.password_hash, input.password) : await spendVerificationTime(input.password);
  if (!customer || !passwordMatches) {
    // Already counted by the reservation: a failure writes only its audit row.
    await recordAudit(db, auditEntryFrom(meta, { actorType: 'anonymous', actorId: customer?.id }, { action: 'auth.login', outcome: 'failure' }));
    throw new AppError('unauthenticated', authMessages.wrongCredentials);
  }
  await settleSucceededAttempt(db, attempt);
  return completeSignIn(dependencies, customer.id, meta);
}

/**
 * What every way of signing in does once the customer has proved who they are (a password, or a
 * passkey: docs/decisions/030): the 'auth.login' audit row (`details.via` names a way other than the
 * password), the browser's device token, and the new-browser notification on a first sign-in from it.
 */
export async function completeSignIn(
  dependencies: AuthDependencies,
  customerId: string,
  meta: SignInOrigin,
  via?: { method: 'passkey'; passkeyId: string },
): Promise<{ customerId: string; deviceToken: string }> {
  const { db } = dependencies;
  await recordAudit(
    db,
    auditEntryOf(
      { customerId, ...meta },
      { action: 'auth.login', outcome: 'success', ...(via ? { details: { via: via.method, passkeyId: via.passkeyId } } : {}) },
    ),
  );
  const deviceToken = meta.deviceToken && deviceTokenPattern.test(meta.deviceToken) ? meta.deviceToken : randomToken();
  const firstTime = await recordSignInDevice(db, { customerId, deviceHash: sha256(deviceToken), userAgent: meta.userAgent });
  if (firstTime) await notifyNewSignIn(dependencies, customerId, meta.userAgent);
  return { customerId, deviceToken };
}

/** Browsers keep a cookie at most 400 days; each sign-in renews it. */
const deviceCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

/** Starts the signed-in browser's session (new id, csrf cookie) and renews its device cookie, for every way of signing in. */
export async function startSignedInBrowser(
  dependencies: Pick<AuthDependencies, 'db'>,
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: { customerId: string; deviceToken: string },
): Promise<void> {
  await startSession(dependencies.db, request, reply, 'customer', signedIn.customerId);
  reply.setCookie(deviceCookieName(request), signedIn.deviceToken, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: deviceCookieMaxAgeSeconds,
  });
}

/** What randomToken() makes: 32 bytes, base64url. Anything else in the cookie is a new browser. */
const deviceTokenPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * A sign-in from a browser the customer has not used before shows on their other pages too, so one
 * they did not make stands out; signing in again from the same browser writes nothing (issue 18).
 */
async function notifyNewSignIn(dependencies: AuthDependencies, customerId: string, userAgent: string | undefined): Promise<void> {
  const at = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  await notifyCustomer(dependencies.db, {
    customerId,
    kind: 'new_sign_in',
    name: 'New sign-in',
    text: `You signed in from ${describeUserAgent(userAgent)} at ${at}. If this was not you, change your password now and contact us.`,
    // Changing the password by email is the way to lock out whoever signed in.
    link: '/forgetpassword',
  });
  dependencies.liveEvents.publish(customerId, 'notifications');
}

export const passwordResetJobKind = 'auth.password-reset';
/** A mail server that is down for a while is retried, with growing delays, for about four minutes. */
const passwordResetMaxAttempts = 8;
const passwordResetPayloadSchema = z.object({ email: z.string(), ip: z.string().optional(), requestId: z.string(), userAgent: z.string().optional() });

/**
 * Same answer for known and unknown emails, in the same time (ASVS 6.3.8): the request only queues
 * a job, whoever the email belongs to, so it runs the same statements either way. Looking the
 * address up, making the link and sending the mail happen in the job, away from the answer.
 */
export async function requestPasswordReset(dependencies: Pick<AuthDependencies, 'db'>, email: string, meta: RequestOrigin): Promise<void> {
  const payload: z.infer<typeof passwordResetPayloadSchema> = { email, ip: meta.ip, requestId: meta.requestId, userAgent: meta.userAgent };
  await insertJob(dependencies.db, { kind: passwordResetJobKind, payload, maxAttempts: passwordResetMaxAttempts });
}

/** The job: a known address gets a one-hour, single-use link; an unknown one gets nothing. */
async function sendPasswordReset(dependencies: AuthDependencies, email: string, meta: RequestOrigin): Promise<void> {
  const customer = await findCustomerByEmail(dependencies.db, email);
  const audit = (outcome: AuditEntry['outcome']) =>
    auditEntryFrom(meta, { actorType: 'anonymous', actorId: customer?.id }, { action: 'auth.password_reset_requested', outcome });
  if (!customer) {
    await recordAudit(dependencies.db, audit('failure'));
    return;
  }
  const token = randomToken();
  await insertPasswordReset(dependencies.db, { tokenHash: sha256(token), customerId: customer.id, validForMs: passwordResetValidMs });
  await dependencies.mailer.send({
    to: customer.email,
    subject: `Set a new password for ${dependencies.config.bankName}`,
    text: `Hello ${customer.first_name},\n\nOpen this link to set a new password. It works once, for one hour:\n\n${dependencies.config.publicUrl}/resetpassword/${token}\n\nIf you did not ask for this, ignore this email: your password has not changed.\n\n${dependencies.config.bankName}`,
  });
  // After the mail, so a retried job (the mail server was down) is audited once.
  await recordAudit(dependencies.db, audit('success'));
}

export function registerAuthJobs(jobs: JobRunner, dependencies: AuthDependencies): void {
  jobs.register(passwordResetJobKind, async (payload) => {
    const { email, ...meta } = passwordResetPayloadSchema.parse(payload);
    await sendPasswordReset(dependencies, email, meta);
  });
}

export async function checkPasswordReset(dependencies: AuthDependencies, token: string): Promise<void> {
  if (!(await findLivePasswordReset(dependencies.db, sha256(token)))) throw new AppError('bad_request', authMessages.resetLinkInvalid);
}

/** Sets the new password, spends the link, and ends every session of the customer (ASVS 7.4.3). */
export async function completePasswordReset(dependencies: AuthDependencies, token: string, password: string, meta: RequestOrigin): Promise<void> {
  refuseCommonPassword(password);
  const passwordHash = await hashPassword(password);
  const customerId = await dependencies.db.transaction(async (tx) => {
    const id = await usePasswordReset(tx, sha256(token));
    if (!id) return undefined;
    await updatePasswordHash(tx, id, passwordHash);
    await endAllSessions(tx, 'customer', id);
    const customer = await findCustomerById(tx, id);
    if (customer) await clearFailures(tx, `account:${normalizeEmail(customer.email)}`);
    return id;
  });
  await recordAudit(dependencies.db, auditOf(meta, customerId, { action: 'auth.password_reset', outcome: customerId ? 'success' : 'failure' }));
  if (!customerId) throw new AppError('bad_request', authMessages.resetLinkInvalid);
}

/** The sign-in a verified email gives the browser that signed up (its poll of `/auth/signup/status`). */
export async function recordEmailVerificationSignIn(db: Queryable, customerId: string, meta: RequestOrigin): Promise<void> {
  await recordAudit(db, auditEntryOf({ customerId, ...meta }, { action: 'auth.login', outcome: 'success', details: { via: 'email_verification' } }));
}

/** A customer's sign-out, audited as the customer whose session it was, or as anonymous when there was none. */
export async function recordLogout(db: Queryable, customerId: string | undefined, meta: RequestOrigin): Promise<void> {
  await recordAudit(db, auditOf(meta, customerId, { action: 'auth.logout', outcome: 'success' }));
}
