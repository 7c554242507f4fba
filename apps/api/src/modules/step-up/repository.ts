import { stepUpCodeValidMinutes, stepUpMaxAttempts, stepUpVerifiedValidMinutes } from '@strongroom/contracts/step-up.ts';
import type { Queryable } from '../../db/database.ts';

/** The step-up challenges' SQL (table step_up_challenges); the rules around it are in service.ts. */

export interface ChallengeRow {
  id: string;
  customer_id: string;
  idempotency_key: string;
  request_hash: Buffer | Uint8Array;
  phone_e164: string;
  code_hash: Buffer | Uint8Array | null;
  attempts: number;
  sends: number;
  guards_money: boolean;
  purpose: string | null;
  created_at: Date;
  expires_at: Date;
  verified_at: Date | null;
  used_at: Date | null;
  last_sent_at: Date;
  now: Date;
}

export type VerifiedMethod = 'sms' | 'totp' | 'recovery_code' | 'passkey';

const challengeIdPattern = /^[0-9a-f-]{36}$/i;

/** The customer's phone, once verified; undefined without one. */
export async function verifiedPhoneOf(db: Queryable, customerId: string): Promise<string | undefined> {
  const [row] = await db.query<{ phone_e164: string | null }>('SELECT phone_e164 FROM customers WHERE id = $1 AND phone_verified_at IS NOT NULL', [customerId]);
  return row?.phone_e164 ?? undefined;
}

/**
 * Until the transaction ends, this customer's challenges are made one at a time. An advisory lock
 * rather than the customer's row: payments lock that row for their own reasons, and a challenge
 * must not wait for a payment (nor make one wait).
 */
export async function lockCustomerChallenges(tx: Queryable, customerId: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('step-up:' || $1::text, 0))", [customerId], { name: 'step_up_lock_customer' });
}

/** The open challenge of this very request (customer, key and body): not answered, not expired, tries left. */
export async function findOpenChallengeFor(
  tx: Queryable,
  request: { customerId: string; idempotencyKey: string; requestHash: Buffer },
): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM step_up_challenges
      WHERE customer_id = $1 AND idempotency_key = $2 AND request_hash = $3
        AND verified_at IS NULL AND expires_at > now() AND attempts < $4
      ORDER BY created_at DESC LIMIT 1`,
    [request.customerId, request.idempotencyKey, request.requestHash, stepUpMaxAttempts],
  );
  return row?.id;
}

/** Challenges of the customer's that are still waiting for an answer in the window, and when the oldest leaves it. */
export async function openChallengeCount(tx: Queryable, customerId: string, windowMinutes: number): Promise<{ count: number; retryAfterSeconds: number }> {
  const [row] = await tx.query<{ count: number; retry_after_seconds: number | null }>(
    `SELECT count(*)::integer AS count,
            ceil(extract(epoch FROM min(created_at) + make_interval(mins => $2) - now()))::integer AS retry_after_seconds
       FROM step_up_challenges
      WHERE customer_id = $1 AND verified_at IS NULL AND created_at > now() - make_interval(mins => $2)`,
    [customerId, windowMinutes],
  );
  return { count: row?.count ?? 0, retryAfterSeconds: Math.max(1, row?.retry_after_seconds ?? 1) };
}

export interface NewChallenge {
  id: string;
  customerId: string;
  idempotencyKey: string;
  requestHash: Buffer;
  amountCents: bigint;
  phone: string;
  codeHash: Buffer | null;
  sends: number;
  guardsMoney: boolean;
  purpose: string;
}

export async function insertChallenge(tx: Queryable, challenge: NewChallenge): Promise<void> {
  await tx.query(
    `INSERT INTO step_up_challenges (id, customer_id, idempotency_key, request_hash, amount_cents, phone_e164, code_hash, sends, guards_money, purpose, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(mins => $11))`,
    [
      challenge.id,
      challenge.customerId,
      challenge.idempotencyKey,
      challenge.requestHash,
      challenge.amountCents.toString(),
      challenge.phone,
      challenge.codeHash,
      challenge.sends,
      challenge.guardsMoney,
      challenge.purpose,
      stepUpCodeValidMinutes,
    ],
  );
}

/** The customer's challenge, locked for the rest of the transaction; undefined for an id that is not one, or not theirs. */
export async function lockChallenge(tx: Queryable, challengeId: string, customerId: string): Promise<ChallengeRow | undefined> {
  if (!challengeIdPattern.test(challengeId)) return undefined;
  const [row] = await tx.query<ChallengeRow>(
    `SELECT id, customer_id, idempotency_key, request_hash, phone_e164, code_hash, attempts, sends, guards_money, purpose, created_at, last_sent_at, expires_at,
            verified_at, used_at, now() AS now
     FROM step_up_challenges WHERE id = $1 AND customer_id = $2 FOR UPDATE`,
    [challengeId, customerId],
  );
  return row;
}

export async function markVerified(tx: Queryable, challengeId: string, method: VerifiedMethod): Promise<void> {
  await tx.query('UPDATE step_up_challenges SET verified_at = now(), verified_method = $2 WHERE id = $1', [challengeId, method]);
}

export async function countWrongAnswer(tx: Queryable, challengeId: string): Promise<void> {
  await tx.query('UPDATE step_up_challenges SET attempts = attempts + 1 WHERE id = $1', [challengeId]);
}

/** A new code for the challenge: tries start again, and it lives its full time from now. */
export async function replaceCode(tx: Queryable, challengeId: string, codeHash: Buffer): Promise<void> {
  await tx.query(
    `UPDATE step_up_challenges SET code_hash = $2, attempts = 0, sends = sends + 1, last_sent_at = now(), expires_at = now() + make_interval(mins => $3) WHERE id = $1`,
    [challengeId, codeHash, stepUpCodeValidMinutes],
  );
}

/** A challenge of the customer's that may still be answered. */
export async function findOpenChallenge(db: Queryable, customerId: string, challengeId: string): Promise<{ id: string; guardsMoney: boolean } | undefined> {
  if (!challengeIdPattern.test(challengeId)) return undefined;
  const [row] = await db.query<{ id: string; guards_money: boolean }>(
    `SELECT id, guards_money FROM step_up_challenges
      WHERE id = $1 AND customer_id = $2 AND verified_at IS NULL AND expires_at > now() AND attempts < $3`,
    [challengeId, customerId, stepUpMaxAttempts],
  );
  return row && { id: row.id, guardsMoney: row.guards_money };
}

/** Marks the challenge used if it is the customer's, for this key and body, verified within the time allowed and unused. */
export async function useVerifiedChallenge(tx: Queryable, customerId: string, challengeId: string, idempotencyKey: string, hash: Buffer): Promise<boolean> {
  if (!challengeIdPattern.test(challengeId)) return false;
  // The key is claimed only when the payment is, so a different body may arrive under the same
  // key before then: the body's hash is part of the match.
  const rows = await tx.query(
    `UPDATE step_up_challenges SET used_at = now()
     WHERE id = $1 AND customer_id = $2 AND idempotency_key = $3 AND request_hash = $5 AND used_at IS NULL
       AND verified_at IS NOT NULL AND verified_at > now() - make_interval(mins => $4)
     RETURNING id`,
    [challengeId, customerId, idempotencyKey, stepUpVerifiedValidMinutes, hash],
  );
  return rows.length === 1;
}
