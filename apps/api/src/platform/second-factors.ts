import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { decrypt, encrypt, keyedHash } from './crypto.ts';
import { matchTotp } from './totp.ts';

/**
 * A customer's authenticator app and recovery codes (issue 15, docs/decisions/029), as step-up
 * (modules/step-up) and the security module both need them. The app's secret is sealed with the
 * server's encryption key as the staff one is; a code is accepted once: the step it belongs to must
 * be later than the last accepted one (platform/totp.ts). Recovery codes are stored as keyed hashes.
 */
export interface SecondFactorKeys {
  /** Seals the authenticator secret (AES-256-GCM). */
  encryptionKey: Buffer;
  /** Keys the recovery codes' hashes. */
  hashKey: Buffer;
}

export function sealTotpSecret(keys: Pick<SecondFactorKeys, 'encryptionKey'>, secret: string): Buffer {
  return encrypt(keys.encryptionKey, Buffer.from(secret, 'utf8'));
}

export function openTotpSecret(keys: Pick<SecondFactorKeys, 'encryptionKey'>, sealed: Buffer | Uint8Array): string {
  return decrypt(keys.encryptionKey, Buffer.from(sealed)).toString('utf8');
}

export async function hasConfirmedTotp(db: Queryable, customerId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM customer_totp WHERE customer_id = $1 AND confirmed_at IS NOT NULL', [customerId]);
  return rows.length === 1;
}

export type TotpCheck = 'accepted' | 'replayed' | 'wrong';

/**
 * Checks a code against the customer's app (confirmed or, with `pending`, being enrolled) and, if it
 * is right and newer than the last accepted one, remembers its step. Run it inside the transaction
 * that uses the answer: the step is claimed by a conditional update, so two requests racing with
 * the same code cannot both win.
 */
export async function checkCustomerTotp(
  tx: Queryable,
  keys: Pick<SecondFactorKeys, 'encryptionKey'>,
  customerId: string,
  code: string,
  options: { pending?: boolean; atMs?: number } = {},
): Promise<TotpCheck> {
  const [row] = await tx.query<{ secret_encrypted: Buffer }>(
    `SELECT secret_encrypted FROM customer_totp WHERE customer_id = $1 AND (confirmed_at IS NULL) = $2 FOR UPDATE`,
    [customerId, options.pending === true],
  );
  if (!row) return 'wrong';
  const step = matchTotp(openTotpSecret(keys, row.secret_encrypted), code, options.atMs);
  if (step === undefined) return 'wrong';
  const claimed = await tx.query('UPDATE customer_totp SET last_step = $2 WHERE customer_id = $1 AND last_step < $2 RETURNING 1', [customerId, step]);
  return claimed.length === 1 ? 'accepted' : 'replayed';
}

/** Ten codes, each ten characters in two groups of five, from an alphabet with no look-alikes. */
export const recoveryCodeCount = 10;
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
export const recoveryCodePattern = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const characters = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

/** Case and the dash do not matter when typed back. */
function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace('-', '');
}

export function recoveryCodeHash(keys: Pick<SecondFactorKeys, 'hashKey'>, customerId: string, code: string): Buffer {
  return keyedHash(keys.hashKey, `recovery-code:${customerId}:${normalizeRecoveryCode(code)}`);
}

export async function replaceRecoveryCodes(
  tx: Queryable,
  keys: Pick<SecondFactorKeys, 'hashKey'>,
  customerId: string,
  codes: readonly string[],
): Promise<void> {
  await tx.query('DELETE FROM customer_recovery_codes WHERE customer_id = $1', [customerId]);
  for (const code of codes) {
    await tx.query('INSERT INTO customer_recovery_codes (customer_id, code_hash) VALUES ($1, $2)', [customerId, recoveryCodeHash(keys, customerId, code)]);
  }
}

/** Spends one unused recovery code of a customer whose app is confirmed; false when it is wrong or used. */
export async function spendRecoveryCode(tx: Queryable, keys: Pick<SecondFactorKeys, 'hashKey'>, customerId: string, code: string): Promise<boolean> {
  if (!recoveryCodePattern.test(code.trim())) return false;
  const rows = await tx.query(
    `UPDATE customer_recovery_codes SET used_at = now()
      WHERE customer_id = $1 AND code_hash = $2 AND used_at IS NULL
        AND EXISTS (SELECT 1 FROM customer_totp WHERE customer_id = $1 AND confirmed_at IS NOT NULL)
      RETURNING 1`,
    [customerId, recoveryCodeHash(keys, customerId, code)],
  );
  return rows.length === 1;
}

export async function unusedRecoveryCodes(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM customer_recovery_codes WHERE customer_id = $1 AND used_at IS NULL', [
    customerId,
  ]);
  return row?.count ?? 0;
}
