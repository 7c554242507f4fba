import type { Database, Queryable } from '../db/database.ts';

/**
 * Sign-in throttling (ASVS 6.1.1 / 6.3.1, NIST 800-63B 5.2.2; decision 049). Failures are counted
 * per account and per IP address. Past a free allowance each failure doubles a short wait, capped,
 * so an attacker slows to a crawl while the real customer is never locked out for long.
 *
 * The count that sets the wait forgives one failure every so often (a leaky bucket): an address
 * shared by a whole office behind one NAT, where people mistype all day, is slowed only while its
 * failures come faster than they are forgiven, instead of for ever after its twentieth. An account
 * also keeps the plain count of its consecutive failures, which forgives nothing: at 100 the account
 * needs a password reset whatever the pace of the guesses. A success clears the account's counts.
 */
export interface ThrottlePolicy {
  /** Failures allowed before each further one makes the key wait. */
  freeFailures: number;
  maxDelaySeconds: number;
  /** The counted failures drain at one per this many seconds. */
  forgiveOneFailureEverySeconds: number;
}

export const throttlePolicy = {
  // An attacker pacing at the longest wait (12 an hour) outruns the forgiving (6 an hour), so the
  // cap, not the forgiving, sets the most guesses an hour one account can take.
  account: { freeFailures: 5, maxDelaySeconds: 300, forgiveOneFailureEverySeconds: 600 },
  // Twenty mistyped passwords an hour from one address never slow it down.
  ip: { freeFailures: 20, maxDelaySeconds: 900, forgiveOneFailureEverySeconds: 180 },
  failuresBeforeRecoveryRequired: 100,
} as const satisfies { account: ThrottlePolicy; ip: ThrottlePolicy; failuresBeforeRecoveryRequired: number };

export type ThrottleKey = `account:${string}` | `ip:${string}`;

/** Customers' and staff's accounts alike (`account:staff:...`); the recovery rule is theirs alone. */
function isAccountKey(key: ThrottleKey): boolean {
  return key.startsWith('account:');
}

function policyOf(key: ThrottleKey): ThrottlePolicy {
  return isAccountKey(key) ? throttlePolicy.account : throttlePolicy.ip;
}

/** The attempt may go on: it is already counted as a failure for every key, until it is settled. */
export interface ReservedAttempt {
  outcome: 'reserved';
  keys: readonly ThrottleKey[];
}

export type SignInReservation = ReservedAttempt | { outcome: 'throttled'; retryAfterSeconds: number } | { outcome: 'recovery_required' };

interface LockedKey {
  key: ThrottleKey;
  consecutive_failures: number;
  blocked_seconds: number | null;
}

/**
 * Makes each key's row if it has none and locks them all, in key order so that two attempts that
 * share a key never wait on each other in a cycle; says how long each is still blocked.
 */
const lockKeysSql = `
  INSERT INTO login_throttle AS t (key)
  SELECT key FROM unnest($1::text[]) AS wanted (key) ORDER BY key
  ON CONFLICT (key) DO UPDATE SET consecutive_failures = t.consecutive_failures
  RETURNING key, consecutive_failures, ceil(extract(epoch FROM blocked_until - now()))::integer AS blocked_seconds`;

/**
 * Counts one failure for each key: the recent count first drains by the time since the last
 * failure, then takes this one; past the free allowance the key is blocked for 2^(excess) seconds,
 * capped. Runs on rows the same transaction has locked.
 */
const countFailureSql = `
  UPDATE login_throttle AS t SET
    consecutive_failures = t.consecutive_failures + 1,
    recent_failures = next.recent_failures,
    last_failure_at = now(),
    blocked_until = CASE WHEN next.recent_failures > next.free_failures
                         THEN now() + make_interval(secs => least(next.max_delay_seconds, power(2, next.recent_failures - next.free_failures)))
                    END
  FROM (
    SELECT p.key, p.free_failures, p.max_delay_seconds,
           greatest(c.recent_failures - coalesce(extract(epoch FROM now() - c.last_failure_at), 0) / p.forgive_seconds, 0) + 1 AS recent_failures
      FROM unnest($1::text[], $2::integer[], $3::integer[], $4::integer[]) AS p (key, free_failures, max_delay_seconds, forgive_seconds)
      JOIN login_throttle c ON c.key = p.key
  ) AS next
  WHERE t.key = next.key`;

/** Thrown inside the reservation's transaction so that a refused attempt leaves no row behind. */
class RefusedAttempt extends Error {
  constructor(readonly reservation: Exclude<SignInReservation, ReservedAttempt>) {
    super(reservation.outcome);
  }
}

/**
 * Counts a sign-in attempt as a failure for every key before its password (or passkey) is checked,
 * all keys or none, in one transaction that holds their rows: concurrent attempts are counted one
 * after another, so once the allowance is spent the next ones are refused without a check, however
 * many arrive at once (issue 30, item 5). Refused while any key is blocked ('throttled', and
 * nothing counted), or when an account has failed 100 times in a row ('recovery_required'). The
 * keys are the same whether or not the email belongs to anyone, so an unknown email is counted and
 * refused exactly as a known one (ASVS 6.3.8). Settle a reserved attempt that succeeded with
 * settleSucceededAttempt; a failed one is already counted.
 */
export async function reserveSignInAttempt(db: Database, keys: readonly ThrottleKey[]): Promise<SignInReservation> {
  if (keys.length === 0 || new Set(keys).size !== keys.length) throw new Error(`A sign-in attempt needs distinct throttle keys: ${keys.join(', ')}`);
  const policies = keys.map(policyOf);
  try {
    return await db.transaction(async (tx) => {
      const locked = await tx.query<LockedKey>(lockKeysSql, [keys]);
      if (locked.length !== keys.length) throw new Error(`Locked ${locked.length} of ${keys.length} throttle keys`);
      const retryAfterSeconds = Math.max(0, ...locked.map((row) => row.blocked_seconds ?? 0));
      if (retryAfterSeconds > 0) throw new RefusedAttempt({ outcome: 'throttled', retryAfterSeconds });
      if (locked.some((row) => isAccountKey(row.key) && row.consecutive_failures >= throttlePolicy.failuresBeforeRecoveryRequired)) {
        throw new RefusedAttempt({ outcome: 'recovery_required' });
      }
      await tx.query(countFailureSql, [
        keys,
        policies.map((policy) => policy.freeFailures),
        policies.map((policy) => policy.maxDelaySeconds),
        policies.map((policy) => policy.forgiveOneFailureEverySeconds),
      ]);
      return { outcome: 'reserved', keys } as const;
    });
  } catch (error) {
    if (error instanceof RefusedAttempt) return error.reservation;
    throw error;
  }
}

/**
 * The attempt proved who it was: the account's counts are cleared, as before, and the address gets
 * back the failure its reservation counted (a success is no failure). An address still past its
 * allowance keeps the wait: one wait per attempt is the price while it is. An address left with
 * no failure on record has its row deleted, so signing in leaves nothing behind. Each statement
 * touches one kind of key: one that held an address while it waited for an account could wait in
 * a cycle with a reservation, which locks the account first.
 */
export async function settleSucceededAttempt(db: Queryable, attempt: ReservedAttempt): Promise<void> {
  const accountKeys = attempt.keys.filter(isAccountKey);
  const addressKeys = attempt.keys.filter((key) => !isAccountKey(key));
  await db.query('DELETE FROM login_throttle WHERE key = ANY($1::text[])', [accountKeys]);
  await db.query(
    `UPDATE login_throttle AS t SET
       consecutive_failures = greatest(t.consecutive_failures - 1, 0),
       recent_failures = greatest(t.recent_failures - 1, 0),
       blocked_until = CASE WHEN t.recent_failures - 1 > p.free_failures THEN t.blocked_until END
     FROM unnest($1::text[], $2::integer[]) AS p (key, free_failures)
     WHERE t.key = p.key`,
    [addressKeys, addressKeys.map((key) => policyOf(key).freeFailures)],
  );
  await db.query('DELETE FROM login_throttle WHERE key = ANY($1::text[]) AND consecutive_failures = 0', [addressKeys]);
}

/** The plain count of a key's failures since its last success (the recovery rule reads it for accounts). */
export async function consecutiveFailures(db: Queryable, key: ThrottleKey): Promise<number> {
  const [row] = await db.query<{ consecutive_failures: number }>('SELECT consecutive_failures FROM login_throttle WHERE key = $1', [key]);
  return row?.consecutive_failures ?? 0;
}

/** A password reset starts the account afresh (it is the recovery the 100-failure rule asks for). */
export async function clearFailures(db: Queryable, key: ThrottleKey): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
