import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { passkeyChallengeValidMinutes, type Passkey } from '@strongroom/contracts/passkeys.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { keyedHash, sha256 } from '../../platform/crypto.ts';
import { claimChallenge, insertChallenge, recordPasskeyUse, type ChallengePurpose, type PasskeyRow } from './repository.ts';

/**
 * The WebAuthn side of passkeys shared by registration, sign-in and step-up: the relying party,
 * the user handle, the challenges kept for one purpose, and the assertion check.
 */
export interface WebAuthnDependencies {
  db: Database;
  config: Pick<Config, 'publicUrl' | 'bankName' | 'secrets'>;
}

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
export function userHandleOf(dependencies: WebAuthnDependencies, customerId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(keyedHash(dependencies.config.secrets.sessionSecret, `passkey-user:${customerId}`));
}

export function challengeHash(challenge: string): Buffer {
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

export function transportsOf(row: PasskeyRow): AuthenticatorTransport[] {
  return row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : [];
}

export function present(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    backedUp: row.backed_up,
    transports: transportsOf(row),
  };
}

/** Spends the challenge a response signed, if it was made for this purpose; the challenge, or undefined. */
export async function claim(
  dependencies: WebAuthnDependencies,
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

/** Options for an assertion, with a challenge kept for its purpose. */
export async function assertionOptions(
  dependencies: WebAuthnDependencies,
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
export async function verifyAssertion(
  dependencies: WebAuthnDependencies,
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
