import type { Queryable } from '../../db/database.ts';

export async function insertEmailVerification(
  db: Queryable,
  input: { tokenHash: Buffer; customerId: string; browserHash: Buffer; validForMs: number },
): Promise<void> {
  await db.query(
    `INSERT INTO email_verifications (token_hash, customer_id, browser_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))`,
    [input.tokenHash, input.customerId, input.browserHash, input.validForMs],
  );
}

/** Spends a verification token once; answers its customer, or undefined if unknown, used or expired. */
export async function useEmailVerification(db: Queryable, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await db.query<{ customer_id: string }>(
    `UPDATE email_verifications SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING customer_id`,
    [tokenHash],
  );
  return row?.customer_id;
}

/** The customer whose signup this browser made, if any. */
export async function findCustomerIdByBrowser(db: Queryable, browserHash: Buffer): Promise<string | undefined> {
  const [row] = await db.query<{ customer_id: string }>(
    'SELECT customer_id FROM email_verifications WHERE browser_hash = $1 ORDER BY created_at DESC LIMIT 1',
    [browserHash],
  );
  return row?.customer_id;
}

export async function lastVerificationSentAt(db: Queryable, customerId: string): Promise<Date | undefined> {
  const [row] = await db.query<{ created_at: Date }>('SELECT max(created_at) AS created_at FROM email_verifications WHERE customer_id = $1', [customerId]);
  return row?.created_at ?? undefined;
}

export async function expireEmailVerifications(db: Queryable, customerId: string): Promise<void> {
  await db.query('UPDATE email_verifications SET expires_at = least(expires_at, now()) WHERE customer_id = $1 AND used_at IS NULL', [customerId]);
}

export async function insertPasswordReset(db: Queryable, input: { tokenHash: Buffer; customerId: string; validForMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO password_resets (token_hash, customer_id, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))`,
    [input.tokenHash, input.customerId, input.validForMs],
  );
}

export async function findLivePasswordReset(db: Queryable, tokenHash: Buffer): Promise<string | undefined> {
  const [row] = await db.query<{ customer_id: string }>(
    'SELECT customer_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [tokenHash],
  );
  return row?.customer_id;
}

/** Spends the reset token and every other open one of the same customer. */
export async function usePasswordReset(db: Queryable, tokenHash: Buffer): Promise<string | undefined> {
  const customerId = await findLivePasswordReset(db, tokenHash);
  if (!customerId) return undefined;
  const spent = await db.query('UPDATE password_resets SET used_at = now() WHERE customer_id = $1 AND used_at IS NULL RETURNING token_hash', [customerId]);
  return spent.length > 0 ? customerId : undefined;
}

/**
 * Records a sign-in from a browser; true when the customer had not signed in from it before. One
 * statement, so two sign-ins from the same new browser at once still record it once.
 */
export async function recordSignInDevice(db: Queryable, input: { customerId: string; deviceHash: Buffer; userAgent?: string }): Promise<boolean> {
  const [row] = await db.query<{ first_time: boolean }>(
    `INSERT INTO known_devices (customer_id, device_hash, user_agent) VALUES ($1, $2, left($3, 300))
     ON CONFLICT (customer_id, device_hash) DO UPDATE SET last_seen_at = now(), user_agent = EXCLUDED.user_agent
     RETURNING (xmax = 0) AS first_time`,
    [input.customerId, input.deviceHash, input.userAgent ?? null],
  );
  return row?.first_time === true;
}
