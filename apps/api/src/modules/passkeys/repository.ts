import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';

export interface PasskeyRow {
  id: string;
  customer_id: string;
  credential_id: string;
  public_key: Buffer | Uint8Array;
  sign_count: string | number;
  transports: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
  aaguid: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const columns = 'id, customer_id, credential_id, public_key, sign_count, transports, device_type, backed_up, aaguid, name, created_at, last_used_at';

export async function listPasskeyRows(db: Queryable, customerId: string): Promise<PasskeyRow[]> {
  return db.query<PasskeyRow>(`SELECT ${columns} FROM passkeys WHERE customer_id = $1 ORDER BY created_at, id`, [customerId]);
}

export async function countPasskeys(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: string | number }>('SELECT count(*) AS count FROM passkeys WHERE customer_id = $1', [customerId]);
  return Number(row?.count ?? 0);
}

export async function findPasskeyByCredential(db: Queryable, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.query<PasskeyRow>(`SELECT ${columns} FROM passkeys WHERE credential_id = $1`, [credentialId]);
  return row;
}

export interface NewPasskey {
  customerId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  aaguid: string;
  name: string;
}

/** Undefined when the credential is registered already (to this customer or another). */
export async function insertPasskey(db: Queryable, passkey: NewPasskey): Promise<PasskeyRow | undefined> {
  const [row] = await db.query<PasskeyRow>(
    `INSERT INTO passkeys (customer_id, credential_id, public_key, sign_count, transports, device_type, backed_up, aaguid, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (credential_id) DO NOTHING
     RETURNING ${columns}`,
    [
      passkey.customerId,
      passkey.credentialId,
      Buffer.from(passkey.publicKey),
      passkey.signCount,
      passkey.transports.join(','),
      passkey.deviceType,
      passkey.backedUp,
      passkey.aaguid,
      passkey.name,
    ],
  );
  return row;
}

export async function renamePasskey(db: Queryable, customerId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<PasskeyRow>(`UPDATE passkeys SET name = $3 WHERE id = $1 AND customer_id = $2 RETURNING ${columns}`, [id, customerId, name]);
  return row;
}

export async function deletePasskey(db: Queryable, customerId: string, id: string): Promise<PasskeyRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<PasskeyRow>(`DELETE FROM passkeys WHERE id = $1 AND customer_id = $2 RETURNING ${columns}`, [id, customerId]);
  return row;
}

/** After a verified assertion: the authenticator's new counter and backup state, and when it was used. */
export async function recordPasskeyUse(db: Queryable, id: string, use: { signCount: number; backedUp: boolean; deviceType: string }): Promise<void> {
  await db.query('UPDATE passkeys SET sign_count = $2, backed_up = $3, device_type = $4, last_used_at = now() WHERE id = $1', [
    id,
    use.signCount,
    use.backedUp,
    use.deviceType,
  ]);
}

export type ChallengePurpose = 'register' | 'sign_in' | 'step_up';

export async function insertChallenge(
  db: Queryable,
  challenge: { hash: Buffer; purpose: ChallengePurpose; customerId: string | null; stepUpChallengeId: string | null; validMinutes: number },
): Promise<void> {
  // Spent and expired challenges serve no purpose once their few minutes are over.
  await db.query(`DELETE FROM passkey_challenges WHERE expires_at < now() - interval '1 hour'`);
  await db.query(
    `INSERT INTO passkey_challenges (challenge_hash, purpose, customer_id, step_up_challenge_id, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5))`,
    [challenge.hash, challenge.purpose, challenge.customerId, challenge.stepUpChallengeId, challenge.validMinutes],
  );
}

/**
 * Spends a challenge: true once, for the purpose (and customer, and step-up) it was made for,
 * before it expires. A replayed response finds it spent.
 */
export async function claimChallenge(
  db: Queryable,
  claim: { hash: Buffer; purpose: ChallengePurpose; customerId: string | null; stepUpChallengeId: string | null },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE passkey_challenges SET used_at = now()
     WHERE challenge_hash = $1 AND purpose = $2 AND customer_id IS NOT DISTINCT FROM $3::uuid
       AND step_up_challenge_id IS NOT DISTINCT FROM $4::uuid AND used_at IS NULL AND expires_at > now()
     RETURNING challenge_hash`,
    [claim.hash, claim.purpose, claim.customerId, claim.stepUpChallengeId],
  );
  return rows.length === 1;
}
