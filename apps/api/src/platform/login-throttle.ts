import type { Queryable } from '../db/database.ts';

/**
 * Sign-in throttling (ASVS 6.1.1 / 6.3.1, NIST 800-63B 5.2.2). Failures are counted per account and
 * per IP address. Past a free allowance each failure doubles a short wait, capped, so an attacker
 * slows to a crawl while the real customer is never locked out for long; a success clears the
 * account's count. At 100 consecutive failures the account needs a password reset.
 */
export const throttlePolicy = {
  account: { freeFailures: 5, maxDelaySeconds: 300 },
  ip: { freeFailures: 20, maxDelaySeconds: 900 },
  failuresBeforeRecoveryRequired: 100,
} as const;

export type ThrottleKey = `account:${string}` | `ip:${string}`;

export async function blockedForSeconds(db: Queryable, keys: ThrottleKey[]): Promise<number> {
  const [row] = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::integer AS seconds
       FROM login_throttle WHERE key = ANY($1::text[]) AND blocked_until > now()`,
    [keys],
  );
  return row?.seconds ?? 0;
}

export async function consecutiveFailures(db: Queryable, key: ThrottleKey): Promise<number> {
  const [row] = await db.query<{ consecutive_failures: number }>('SELECT consecutive_failures FROM login_throttle WHERE key = $1', [key]);
  return row?.consecutive_failures ?? 0;
}

export async function recordFailure(db: Queryable, key: ThrottleKey, policy: { freeFailures: number; maxDelaySeconds: number }): Promise<void> {
  await db.query(
    `INSERT INTO login_throttle AS t (key, consecutive_failures, last_failure_at) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       consecutive_failures = t.consecutive_failures + 1,
       last_failure_at = now(),
       blocked_until = CASE
         WHEN t.consecutive_failures + 1 > $2
         THEN now() + make_interval(secs => least($3::double precision, power(2, t.consecutive_failures + 1 - $2)))
         ELSE t.blocked_until END`,
    [key, policy.freeFailures, policy.maxDelaySeconds],
  );
}

export async function clearFailures(db: Queryable, key: ThrottleKey): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
