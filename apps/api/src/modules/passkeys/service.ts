import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { passkeyAuditActions, passkeyChallengeValidMinutes, type Passkey, type PasskeyRegisterRequest } from '@strongroom/contracts/passkeys.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { keyedHash, sha256 } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { reserveSignInAttempt, settleSucceededAttempt, type ThrottleKey } from '../../platform/login-throttle.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import {
  completeStepUpChallenge,
  consumeStepUp,
  findOpenStepUpChallenge,
  registerStepUpMethod,
  requireStepUp,
  type StepUpDependencies,
} from '../../platform/step-up.ts';
import { completeSignIn, type AuthDependencies, type RequestMeta } from '../auth/service.ts';
import { findCustomerById } from '../customers/service.ts';
import {
  claimChallenge,
  countPasskeys,
  deletePasskey,
  findPasskeyByCredential,
  insertChallenge,
  insertPasskey,
  listPasskeyRows,
  recordPasskeyUse,
  renamePasskey,
  type ChallengePurpose,
  type PasskeyRow,
} from './repository.ts';

export interface PasskeyDependencies {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'bankName' | 'secrets'>;
  stepUp: StepUpDependencies;
  /** The auth module's sign-in: the same audit row, device cookie and new-browser notification as a password. */
  auth: AuthDependencies;
}

export interface PasskeyActor {
  customerId: string;
  ip: string;
  requestId: string;
  userAgent?: string;
}

// A customer with a passkey is offered it first in the step-up dialog (A's registry, keyed by name).
registerStepUpMethod('passkey', async (db, customerId) => (await countPasskeys(db, customerId)) > 0);

const loopbackAddresses = new Set(['127.0.0.1', '[::1]', '::1']);

/**
 * The relying party: the host of PUBLIC_URL, and its origin. Browsers refuse an IP address as a
 * WebAuthn RP ID, so a PUBLIC_URL on a loopback address (a developer's or the journeys' server)
 * uses `localhost` on the same port, which is the same machine: open the app at localhost to use
 * passkeys there. Any other host is used as it is.
 */
export function relyingPartyOf(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  if (loopbackAddresses.has(url.hostname)) {
    return { rpID: 'localhost', origin: `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}` };
  }
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * The WebAuthn user handle of a customer: the same for all their passkeys (so an authenticator
 * keeps one per customer), derived from the id with the server's secret so it tells nothing.
 */
function userHandleOf(dependencies: PasskeyDependencies, customerId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(keyedHash(dependencies.config.secrets.sessionSecret, `passkey-user:${customerId}`));
}

function challengeHash(challenge: string): Buffer {
  return sha256(`passkey-challenge:${challenge}`);
}

/** The challenge a response signed, from its clientDataJSON; undefined when it cannot be read. */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = parsed && typeof parsed === 'object' && 'challenge' in parsed ? parsed.challenge : undefined;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

function transportsOf(row: PasskeyRow): AuthenticatorTransport[] {
  return row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : [];
}

function present(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    backedUp: row.backed_up,
    transports: transportsOf(row),
  };
}

async function claim(
  dependencies: PasskeyDependencies,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  customerId: string | null,
  stepUpChallengeId: string | null = null,
): Promise<string | undefined> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) return undefined;
  const claimed = await claimChallenge(dependencies.db, { hash: challengeHash(challenge), purpose, customerId, stepUpChallengeId });
  return claimed ? challenge : undefined;
}

export async function listPasskeys(dependencies: Pick<PasskeyDependencies, 'db'>, customerId: string): Promise<Passkey[]> {
  return (await listPasskeyRows(dependencies.db, customerId)).map(present);
}

/**
 * `POST /me/passkeys/registration/options`: a new passkey is a new way into the account, so it
 * needs a step-up (ASVS 7.5.1), bound to this request and used once; the options' challenge then
 * carries that consent to `POST /me/passkeys` (5 minutes, once).
 */
export async function registrationOptions(dependencies: PasskeyDependencies, actor: PasskeyActor, stepUpChallengeId: string | undefined) {
  const { db } = dependencies;
  const stepUpKey = `passkey-register:${actor.customerId}`;
  const hash = requestHash('passkey-register', { customerId: actor.customerId });
  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: stepUpKey,
    requestHash: hash,
    amountCents: 0n,
    purpose: 'adding a passkey to your account',
    requestId: actor.requestId,
    // It protects the account: a customer whom staff froze may still add one.
    guardsMoney: false,
  };
  if (!stepUpChallengeId) return requireStepUp(dependencies.stepUp, challenge);
  const customer = await findCustomerById(db, actor.customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in.');
  const { rpID } = relyingPartyOf(dependencies.config.publicUrl);
  const existing = await listPasskeyRows(db, actor.customerId);
  const options = await generateRegistrationOptions({
    rpName: dependencies.config.bankName,
    rpID,
    userName: customer.email,
    userDisplayName: `${customer.first_name} ${customer.last_name}`,
    userID: userHandleOf(dependencies, actor.customerId),
    attestationType: 'none',
    // One passkey per authenticator: the browser skips those it already holds.
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    // Discoverable (sign-in without an email) and verified by the device (PIN, fingerprint, face).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: passkeyChallengeValidMinutes * 60_000 - 30_000,
  });
  const consumed = await db.transaction(async (tx) => {
    if (!(await consumeStepUp(tx, actor.customerId, stepUpChallengeId, stepUpKey, hash))) return false;
    await insertChallenge(tx, {
      hash: challengeHash(options.challenge),
      purpose: 'register',
      customerId: actor.customerId,
      stepUpChallengeId: null,
      validMinutes: passkeyChallengeValidMinutes,
    });
    return true;
  });
  if (!consumed) return requireStepUp(dependencies.stepUp, challenge);
  return { options: { ...options } };
}

const registrationRefused = 'This passkey could not be added. Start again from "Add a passkey".';

/** `POST /me/passkeys`: verifies the authenticator's answer to this customer's registration challenge and keeps its public key. */
export async function registerPasskey(dependencies: PasskeyDependencies, actor: PasskeyActor, input: PasskeyRegisterRequest): Promise<Passkey> {
  const { db } = dependencies;
  const response = input.response as RegistrationResponseJSON;
  const refuse = async (reason: string): Promise<never> => {
    await recordAudit(db, { ...auditOf(actor), action: passkeyAuditActions.added, outcome: 'failure', details: { reason } });
    throw new AppError('bad_request', registrationRefused);
  };
  const expectedChallenge = await claim(dependencies, response.response.clientDataJSON, 'register', actor.customerId);
  if (!expectedChallenge) return refuse('challenge_unknown_or_used');
  const { rpID, origin } = relyingPartyOf(dependencies.config.publicUrl);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) return refuse('verification_failed');
  const info = verification.registrationInfo;
  const row = await insertPasskey(db, {
    customerId: actor.customerId,
    credentialId: info.credential.id,
    publicKey: info.credential.publicKey,
    signCount: info.credential.counter,
    transports: (info.credential.transports ?? []).slice(0, 10),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid,
    name: input.name.trim(),
  });
  if (!row) {
    await recordAudit(db, { ...auditOf(actor), action: passkeyAuditActions.added, outcome: 'failure', details: { reason: 'already_registered' } });
    throw new AppError('conflict', 'This passkey is already registered.');
  }
  await recordAudit(db, { ...auditOf(actor), action: passkeyAuditActions.added, subject: row.id, outcome: 'success', details: { name: row.name } });
  await tellCustomer(
    dependencies,
    actor.customerId,
    `A passkey was added to your ${dependencies.config.bankName} account`,
    `A passkey named "${row.name}" was added to your account on ${new Date().toUTCString()}. It can sign you in and confirm your payments.\n\nIf you did not add it, remove it in Settings > Security and contact us now.`,
  );
  return present(row);
}

/** Each passkey added or removed is mailed to the customer, as every change of a way into the account is. */
async function tellCustomer(dependencies: PasskeyDependencies, customerId: string, subject: string, body: string): Promise<void> {
  const customer = await findCustomerById(dependencies.db, customerId);
  if (!customer) return;
  await dependencies.auth.mailer.send({ to: customer.email, subject, text: `Hello ${customer.first_name},\n\n${body}\n\n${dependencies.config.bankName}` });
}

export async function renameCustomerPasskey(dependencies: PasskeyDependencies, actor: PasskeyActor, id: string, name: string): Promise<Passkey> {
  const row = await renamePasskey(dependencies.db, actor.customerId, id, name.trim());
  if (!row) throw new AppError('not_found', 'This passkey was not found.');
  await recordAudit(dependencies.db, {
    ...auditOf(actor),
    action: passkeyAuditActions.renamed,
    subject: row.id,
    outcome: 'success',
    details: { name: row.name },
  });
  return present(row);
}

export async function removeCustomerPasskey(dependencies: PasskeyDependencies, actor: PasskeyActor, id: string): Promise<void> {
  const row = await deletePasskey(dependencies.db, actor.customerId, id);
  if (!row) throw new AppError('not_found', 'This passkey was not found.');
  await recordAudit(dependencies.db, {
    ...auditOf(actor),
    action: passkeyAuditActions.removed,
    subject: row.id,
    outcome: 'success',
    details: { name: row.name },
  });
  await tellCustomer(
    dependencies,
    actor.customerId,
    `A passkey was removed from your ${dependencies.config.bankName} account`,
    `The passkey named "${row.name}" was removed from your account on ${new Date().toUTCString()}. It no longer signs you in.\n\nIf you did not remove it, change your password and contact us now.`,
  );
}

function auditOf(actor: PasskeyActor) {
  return { actorType: 'customer' as const, actorId: actor.customerId, ip: actor.ip, userAgent: actor.userAgent, requestId: actor.requestId };
}

/** Options for an assertion, with a challenge kept for its purpose. */
async function assertionOptions(
  dependencies: PasskeyDependencies,
  purpose: ChallengePurpose,
  customerId: string | null,
  stepUpChallengeId: string | null,
  allow: PasskeyRow[],
) {
  const { rpID } = relyingPartyOf(dependencies.config.publicUrl);
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    allowCredentials: allow.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    timeout: passkeyChallengeValidMinutes * 60_000 - 30_000,
  });
  await insertChallenge(dependencies.db, {
    hash: challengeHash(options.challenge),
    purpose,
    customerId,
    stepUpChallengeId,
    validMinutes: passkeyChallengeValidMinutes,
  });
  return { options: { ...options } };
}

/** Verifies an assertion by `row` against `expectedChallenge` and records the passkey's use; false when it does not verify. */
async function verifyAssertion(
  dependencies: PasskeyDependencies,
  row: PasskeyRow,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
): Promise<boolean> {
  const { rpID, origin } = relyingPartyOf(dependencies.config.publicUrl);
  // A discoverable passkey says whose it is: it must be the customer the credential was registered to.
  if (response.response.userHandle !== undefined) {
    const expected = Buffer.from(userHandleOf(dependencies, row.customer_id)).toString('base64url');
    if (response.response.userHandle !== expected) return false;
  }
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    credential: { id: row.credential_id, publicKey: new Uint8Array(row.public_key), counter: Number(row.sign_count), transports: transportsOf(row) },
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  const info = verification.authenticationInfo;
  await recordPasskeyUse(dependencies.db, row.id, { signCount: info.newCounter, backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType });
  return true;
}

/** `POST /auth/passkey/options`: any passkey of this bank may answer (discoverable credentials, no email asked). */
export async function signInOptions(dependencies: PasskeyDependencies) {
  return assertionOptions(dependencies, 'sign_in', null, null, []);
}

const signInRefused = 'This passkey was not accepted. Try again, or sign in with your email and password.';

/**
 * `POST /auth/passkey`: a verified assertion signs its owner in exactly as a password does
 * (completeSignIn: audit row with via 'passkey', device cookie, new-browser notification).
 * Throttling (decision 030): a failed assertion counts against the address, as a failed password
 * does, and a throttled address waits; it never counts against the account, so password guessing
 * that slows or blocks the account's password sign-in leaves its passkey working.
 */
export async function signInWithPasskey(
  dependencies: PasskeyDependencies,
  response: AuthenticationResponseJSON,
  meta: RequestMeta,
): Promise<{ customerId: string; deviceToken: string }> {
  const { db } = dependencies;
  const ipKey: ThrottleKey = `ip:${meta.ip}`;
  const audit = { ip: meta.ip, userAgent: meta.userAgent, requestId: meta.requestId, action: 'auth.login' };
  // Counted before the assertion is checked, as a password is (issue 30, item 5).
  const attempt = await reserveSignInAttempt(db, [ipKey]);
  if (attempt.outcome === 'recovery_required') throw new Error('An address has no recovery rule; only an account does');
  if (attempt.outcome === 'throttled') {
    await recordAudit(db, { ...audit, actorType: 'anonymous', outcome: 'denied', details: { via: 'passkey', reason: 'throttled' } });
    throw new AppError('rate_limited', 'Too many attempts. Please wait before trying again.', { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  const expectedChallenge = await claim(dependencies, response.response.clientDataJSON, 'sign_in', null);
  const row = await findPasskeyByCredential(db, response.id);
  const reason = !expectedChallenge ? 'challenge_unknown_or_used' : !row ? 'unknown_passkey' : undefined;
  const verified = expectedChallenge && row ? await verifyAssertion(dependencies, row, response, expectedChallenge) : false;
  if (!verified || !row) {
    await recordAudit(db, {
      ...audit,
      actorType: 'anonymous',
      actorId: row?.customer_id,
      outcome: 'failure',
      details: { via: 'passkey', reason: reason ?? 'verification_failed' },
    });
    throw new AppError('unauthenticated', signInRefused);
  }
  await settleSucceededAttempt(db, attempt);
  return completeSignIn(dependencies.auth, row.customer_id, meta, { method: 'passkey', passkeyId: row.id });
}

/** `POST /step-up/{challengeId}/passkey/options`: the customer's own passkeys may answer this step-up. */
export async function stepUpOptions(dependencies: PasskeyDependencies, customerId: string, stepUpChallengeId: string) {
  const open = isUuid(stepUpChallengeId) ? await findOpenStepUpChallenge(dependencies.db, customerId, stepUpChallengeId) : undefined;
  if (!open) throw new AppError('not_found', 'This request for confirmation was not found. Start again.');
  const rows = await listPasskeyRows(dependencies.db, customerId);
  if (rows.length === 0) throw new AppError('conflict', 'You have no passkey yet. Use a code instead.');
  return assertionOptions(dependencies, 'step_up', customerId, open.id, rows);
}

/**
 * `POST /step-up/{challengeId}/passkey`: an assertion by one of the customer's passkeys over the
 * challenge made for this step-up completes it (A's completeStepUpChallenge: audit 'step_up.verify'
 * with method 'passkey'). Another customer's passkey, an unknown one or another challenge: 400.
 */
export async function answerStepUpWithPasskey(
  dependencies: PasskeyDependencies,
  actor: PasskeyActor,
  stepUpChallengeId: string,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const { db } = dependencies;
  const open = isUuid(stepUpChallengeId) ? await findOpenStepUpChallenge(db, actor.customerId, stepUpChallengeId) : undefined;
  if (!open) throw new AppError('not_found', 'This request for confirmation was not found. Start again.');
  const expectedChallenge = await claim(dependencies, response.response.clientDataJSON, 'step_up', actor.customerId, open.id);
  const row = await findPasskeyByCredential(db, response.id);
  const own = row && row.customer_id === actor.customerId ? row : undefined;
  const verified = expectedChallenge && own ? await verifyAssertion(dependencies, own, response, expectedChallenge) : false;
  if (!verified || !own) {
    const reason = !expectedChallenge ? 'challenge_unknown_or_used' : !own ? 'not_own_passkey' : 'verification_failed';
    await recordAudit(db, { ...auditOf(actor), action: 'step_up.verify', outcome: 'failure', details: { challengeId: open.id, method: 'passkey', reason } });
    throw new AppError('bad_request', 'This passkey was not accepted. Try again, or use a code instead.');
  }
  await completeStepUpChallenge(db, { customerId: actor.customerId, challengeId: open.id, method: 'passkey', requestId: actor.requestId });
}
