import { generateRegistrationOptions, verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { passkeyAuditActions, passkeyChallengeValidMinutes, type Passkey, type PasskeyRegisterRequest } from '@strongroom/contracts/passkeys.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { findCustomerById } from '../customers/service.ts';
import { accountChangeStepUp, consumeStepUp, requireStepUp } from '../step-up/service.ts';
import { tellCustomer, type PasskeyDependencies } from './dependencies.ts';
import { insertChallenge, insertPasskey, listPasskeyRows } from './repository.ts';
import { challengeHash, claim, present, relyingPartyOf, transportsOf, userHandleOf } from './webauthn.ts';

/**
 * `POST /me/passkeys/registration/options`: a new passkey is a new way into the account, so it
 * needs a step-up (ASVS 7.5.1), bound to this request and used once; the options' challenge then
 * carries that consent to `POST /me/passkeys` (5 minutes, once).
 */
export async function registrationOptions(dependencies: PasskeyDependencies, actor: CustomerActor, stepUpChallengeId: string | undefined) {
  const { db } = dependencies;
  // It protects the account: a customer whom staff froze may still add one.
  const challenge = accountChangeStepUp(actor, 'passkey-register', 'adding a passkey to your account');
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
    if (!(await consumeStepUp(tx, actor.customerId, stepUpChallengeId, challenge.idempotencyKey, challenge.requestHash))) return false;
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
export async function registerPasskey(dependencies: PasskeyDependencies, actor: CustomerActor, input: PasskeyRegisterRequest): Promise<Passkey> {
  const { db } = dependencies;
  const response = input.response as RegistrationResponseJSON;
  const refuse = async (reason: string): Promise<never> => {
    await recordAudit(db, auditEntryOf(actor, { action: passkeyAuditActions.added, outcome: 'failure', details: { reason } }));
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
    await recordAudit(db, auditEntryOf(actor, { action: passkeyAuditActions.added, outcome: 'failure', details: { reason: 'already_registered' } }));
    throw new AppError('conflict', 'This passkey is already registered.');
  }
  await recordAudit(db, auditEntryOf(actor, { action: passkeyAuditActions.added, subject: row.id, outcome: 'success', details: { name: row.name } }));
  await tellCustomer(
    dependencies,
    actor.customerId,
    `A passkey was added to your ${dependencies.config.bankName} account`,
    `A passkey named "${row.name}" was added to your account on ${new Date().toUTCString()}. It can sign you in and confirm your payments.\n\nIf you did not add it, remove it in Settings > Security and contact us now.`,
  );
  return present(row);
}
