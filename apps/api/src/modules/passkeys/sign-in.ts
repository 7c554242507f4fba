import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { reserveSignInAttempt, settleSucceededAttempt, type ThrottleKey } from '../../platform/login-throttle.ts';
import { auditEntryFrom } from '../../platform/request-actor.ts';
import { completeSignIn, type SignInOrigin } from '../auth/service.ts';
import type { PasskeyDependencies } from './dependencies.ts';
import { findPasskeyByCredential } from './repository.ts';
import { assertionOptions, claim, verifyAssertion } from './webauthn.ts';

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
  meta: SignInOrigin,
): Promise<{ customerId: string; deviceToken: string }> {
  const { db } = dependencies;
  const ipKey: ThrottleKey = `ip:${meta.ip ?? 'unknown'}`;
  const audit = (actorId: string | undefined, entry: Pick<AuditEntry, 'outcome' | 'details'>) =>
    auditEntryFrom(meta, { actorType: 'anonymous', actorId }, { action: 'auth.login', ...entry });
  // Counted before the assertion is checked, as a password is (issue 30, item 5).
  const attempt = await reserveSignInAttempt(db, [ipKey]);
  if (attempt.outcome === 'recovery_required') throw new Error('An address has no recovery rule; only an account does');
  if (attempt.outcome === 'throttled') {
    await recordAudit(db, audit(undefined, { outcome: 'denied', details: { via: 'passkey', reason: 'throttled' } }));
    throw new AppError('rate_limited', 'Too many attempts. Please wait before trying again.', { retryAfterSeconds: attempt.retryAfterSeconds });
  }
  const expectedChallenge = await claim(dependencies, response.response.clientDataJSON, 'sign_in', null);
  const row = await findPasskeyByCredential(db, response.id);
  const reason = !expectedChallenge ? 'challenge_unknown_or_used' : !row ? 'unknown_passkey' : undefined;
  const verified = expectedChallenge && row ? await verifyAssertion(dependencies, row, response, expectedChallenge) : false;
  if (!verified || !row) {
    await recordAudit(db, audit(row?.customer_id, { outcome: 'failure', details: { via: 'passkey', reason: reason ?? 'verification_failed' } }));
    throw new AppError('unauthenticated', signInRefused);
  }
  await settleSucceededAttempt(db, attempt);
  return completeSignIn(dependencies.auth, row.customer_id, meta, { method: 'passkey', passkeyId: row.id });
}
