import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database, Queryable } from '../../../db/database.ts';
import { decrypt, encrypt } from '../../../platform/crypto.ts';

/**
 * The authorization server's signing keys (docs/connected-apps.md, "Keys"), in oauth_signing_keys:
 * the private half sealed with the bank's encryption key (AES-256-GCM, platform/crypto.ts) as its
 * other secrets are, the public half in clear for /oauth/jwks.
 *
 * FAPI 2.0 allows PS256, ES256 and EdDSA for what the server signs (ID tokens): one ES256 and one
 * PS256 key are active, so a client may pick either. A rotation adds a new pair and retires the old;
 * a retired key no longer signs but stays published for `retiredKeyPublishedSeconds`, longer than
 * anything it signed lives (ID tokens: 5 minutes) plus the hour a client may cache the JWKS.
 */
export const signingAlgorithms = ['ES256', 'PS256'] as const;
export const retiredKeyPublishedSeconds = 2 * 60 * 60;

interface KeyRow {
  kid: string;
  alg: string;
  sealed_private_jwk: Uint8Array;
  retired_at: Date | null;
}

export interface SigningKeys {
  /** The private JWKs for the provider's `jwks`: active keys first; retired ones may only verify. */
  jwks: { keys: JWK[] };
  /** Changes whenever a key is added or retired: a process rebuilds its provider when it does. */
  fingerprint: string;
}

async function newKey(alg: (typeof signingAlgorithms)[number], encryptionKey: Buffer) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'PS256' ? { modulusLength: 2048 } : {}) });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return {
    kid,
    alg,
    sealed: encrypt(encryptionKey, Buffer.from(JSON.stringify(privateJwk), 'utf8')),
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
  };
}

async function insertKeys(tx: Queryable, encryptionKey: Buffer): Promise<string[]> {
  const kids: string[] = [];
  for (const alg of signingAlgorithms) {
    const key = await newKey(alg, encryptionKey);
    await tx.query('INSERT INTO oauth_signing_keys (kid, alg, sealed_private_jwk, public_jwk) VALUES ($1, $2, $3, $4)', [
      key.kid,
      key.alg,
      key.sealed,
      JSON.stringify(key.publicJwk),
    ]);
    kids.push(key.kid);
  }
  return kids;
}

async function activeKids(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ kid: string }>('SELECT kid FROM oauth_signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid');
  return rows.map((row) => row.kid);
}

/**
 * The keys to sign and publish with. The first process to start makes them (under a table lock,
 * so two processes starting together do not make two pairs).
 */
export async function loadSigningKeys(db: Database, encryptionKey: Buffer): Promise<SigningKeys> {
  if ((await activeKids(db)).length === 0) {
    await db.transaction(async (tx) => {
      await tx.query('LOCK TABLE oauth_signing_keys IN SHARE ROW EXCLUSIVE MODE');
      if ((await activeKids(tx)).length === 0) await insertKeys(tx, encryptionKey);
    });
  }
  const rows = await db.query<KeyRow>(
    `SELECT kid, alg, sealed_private_jwk, retired_at FROM oauth_signing_keys
     WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)
     ORDER BY retired_at IS NOT NULL, created_at DESC, kid`,
    [retiredKeyPublishedSeconds],
  );
  const keys = rows.map((row) => {
    const jwk = JSON.parse(decrypt(encryptionKey, Buffer.from(row.sealed_private_jwk)).toString('utf8')) as JWK;
    return row.retired_at ? { ...jwk, key_ops: ['verify'] } : jwk;
  });
  return { jwks: { keys }, fingerprint: rows.map((row) => `${row.kid}:${row.retired_at ? 'retired' : 'active'}`).join(',') };
}

/** What `loadSigningKeys` would answer as a fingerprint, without decrypting anything: a cheap check. */
export async function signingKeysFingerprint(db: Queryable): Promise<string> {
  const rows = await db.query<{ kid: string; retired: boolean }>(
    `SELECT kid, retired_at IS NOT NULL AS retired FROM oauth_signing_keys
     WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1)
     ORDER BY retired_at IS NOT NULL, created_at DESC, kid`,
    [retiredKeyPublishedSeconds],
  );
  return rows.map((row) => `${row.kid}:${row.retired ? 'retired' : 'active'}`).join(',');
}

export interface Rotation {
  created: string[];
  retired: string[];
}

/**
 * A rotation: new keys sign from now on; the old ones are retired (published a while longer).
 * `audit` writes its audit entry in the same transaction.
 */
export async function rotateSigningKeys(db: Database, encryptionKey: Buffer, audit: (tx: Queryable, rotation: Rotation) => Promise<void>): Promise<Rotation> {
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE oauth_signing_keys IN SHARE ROW EXCLUSIVE MODE');
    const retired = await tx.query<{ kid: string }>('UPDATE oauth_signing_keys SET retired_at = now() WHERE retired_at IS NULL RETURNING kid');
    const rotation = { created: await insertKeys(tx, encryptionKey), retired: retired.map((row) => row.kid).sort() };
    await audit(tx, rotation);
    return rotation;
  });
}
