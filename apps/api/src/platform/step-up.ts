import { randomUUID } from 'node:crypto';
import { stepUpCodeLength, stepUpCodeValidMinutes, stepUpMaxAttempts, stepUpVerifiedValidMinutes } from '@strongroom/contracts/step-up.ts';
import type { Database, Queryable } from '../db/database.ts';
import { recordAudit } from './audit.ts';
import { equalHashes, keyedHash, randomDigits } from './crypto.ts';
import { AppError } from './errors.ts';
import type { SmsSender } from './messaging/sms-sender.ts';

/**
 * Step-up one-time passwords (PRODUCT.md D10). A challenge authorises exactly one request: the
 * customer's, with one Idempotency-Key and one body (which holds the amount). Its 6-digit code
 * goes by SMS, is stored as a keyed hash, lives 10 minutes, allows 5 tries and is used once; once
 * verified, the request must be repeated within 5 minutes. Anything else gets a new challenge.
 */
export interface StepUpDependencies {
  db: Database;
  sms: SmsSender;
  secret: Buffer;
  bankName: string;
}

export function stepUpDependencies(dependencies: {
  db: Database;
  sms: SmsSender;
  config: { secrets: { sessionSecret: Buffer }; bankName: string };
}): StepUpDependencies {
  return { db: dependencies.db, sms: dependencies.sms, secret: dependencies.config.secrets.sessionSecret, bankName: dependencies.config.bankName };
}

export interface StepUpRequest {
  customerId: string;
  idempotencyKey: string;
  requestHash: Buffer;
  amountCents: bigint;
  /** Words for the SMS, such as 'a transfer of $50.00'. Never an account or card number. */
  purpose: string;
  requestId: string;
}

/** Codes sent for one challenge, the first included; then the customer starts a new one. */
export const stepUpMaxSends = 5;
/** Between two sends for one challenge. */
export const stepUpResendIntervalMs = 30_000;

function codeHash(secret: Buffer, challengeId: string, code: string): Buffer {
  return keyedHash(secret, `step-up:${challengeId}:${code}`);
}

export function maskPhone(phoneE164: string): string {
  return `•••• ${phoneE164.slice(-4)}`;
}

async function phoneOf(db: Queryable, customerId: string): Promise<string> {
  const [row] = await db.query<{ phone_e164: string | null }>('SELECT phone_e164 FROM customers WHERE id = $1 AND phone_verified_at IS NOT NULL', [customerId]);
  if (!row?.phone_e164) throw new AppError('forbidden', 'Verify a phone number before making this payment.');
  return row.phone_e164;
}

function smsText(dependencies: StepUpDependencies, code: string, purpose: string): string {
  return `${dependencies.bankName}: your code is ${code}. It authorises ${purpose} and nothing else. It expires in ${stepUpCodeValidMinutes} minutes. We will never call you to ask for it.`;
}

/** Creates a challenge, sends its code, and answers the 403 the client reacts to. */
export async function requireStepUp(dependencies: StepUpDependencies, request: StepUpRequest): Promise<never> {
  const phone = await phoneOf(dependencies.db, request.customerId);
  const id = randomUUID();
  const code = randomDigits(stepUpCodeLength);
  await dependencies.db.query(
    `INSERT INTO step_up_challenges (id, customer_id, idempotency_key, request_hash, amount_cents, phone_e164, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(mins => $8))`,
    [
      id,
      request.customerId,
      request.idempotencyKey,
      request.requestHash,
      request.amountCents.toString(),
      phone,
      codeHash(dependencies.secret, id, code),
      stepUpCodeValidMinutes,
    ],
  );
  await dependencies.sms.send({ to: phone, text: smsText(dependencies, code, request.purpose) });
  await recordAudit(dependencies.db, {
    actorType: 'customer',
    actorId: request.customerId,
    action: 'step_up.challenge_sent',
    outcome: 'success',
    requestId: request.requestId,
    details: { challengeId: id },
  });
  throw new AppError('step_up_required', `For your security, enter the ${stepUpCodeLength}-digit code we sent to ${maskPhone(phone)}.`, { challengeId: id });
}

interface ChallengeRow {
  id: string;
  customer_id: string;
  idempotency_key: string;
  request_hash: Buffer | Uint8Array;
  phone_e164: string;
  code_hash: Buffer | Uint8Array;
  attempts: number;
  sends: number;
  created_at: Date;
  expires_at: Date;
  verified_at: Date | null;
  used_at: Date | null;
  last_sent_at: Date;
  now: Date;
}

async function lockChallenge(tx: Queryable, challengeId: string, customerId: string): Promise<ChallengeRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(challengeId)) return undefined;
  const [row] = await tx.query<ChallengeRow>(
    `SELECT id, customer_id, idempotency_key, request_hash, phone_e164, code_hash, attempts, sends, created_at, last_sent_at, expires_at, verified_at, used_at, now() AS now
     FROM step_up_challenges WHERE id = $1 AND customer_id = $2 FOR UPDATE`,
    [challengeId, customerId],
  );
  return row;
}

const notFoundMessage = 'This code request was not found. Start the payment again.';

/** `POST /step-up/{id}`: wrong code 400 (tries left), spent or expired 409, someone else's 404. */
export async function verifyStepUp(dependencies: StepUpDependencies, customerId: string, challengeId: string, code: string, requestId: string): Promise<void> {
  const outcome = await dependencies.db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, challengeId, customerId);
    if (!challenge) return { kind: 'missing' as const };
    if (challenge.verified_at) return { kind: 'spent' as const };
    if (challenge.expires_at <= challenge.now || challenge.attempts >= stepUpMaxAttempts) return { kind: 'spent' as const };
    if (!equalHashes(Buffer.from(challenge.code_hash), codeHash(dependencies.secret, challenge.id, code))) {
      await tx.query('UPDATE step_up_challenges SET attempts = attempts + 1 WHERE id = $1', [challenge.id]);
      return { kind: 'wrong' as const, attemptsLeft: stepUpMaxAttempts - challenge.attempts - 1 };
    }
    await tx.query('UPDATE step_up_challenges SET verified_at = now() WHERE id = $1', [challenge.id]);
    return { kind: 'verified' as const };
  });
  await recordAudit(dependencies.db, {
    actorType: 'customer',
    actorId: customerId,
    action: 'step_up.verify',
    outcome: outcome.kind === 'verified' ? 'success' : 'failure',
    requestId,
    details: { challengeId, outcome: outcome.kind },
  });
  if (outcome.kind === 'missing') throw new AppError('not_found', notFoundMessage);
  if (outcome.kind === 'spent') throw new AppError('conflict', 'This code has expired or was already used. Ask for a new one.');
  if (outcome.kind === 'wrong') {
    const message =
      outcome.attemptsLeft > 0
        ? `That code is not right. ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'try' : 'tries'} left.`
        : 'That code is not right, and no tries are left. Ask for a new one.';
    throw new AppError('validation_failed', message, { fields: { code: message } });
  }
}

/** A new code for the same challenge: the old one stops working; at most one every 30 seconds. */
export async function resendStepUp(dependencies: StepUpDependencies, customerId: string, challengeId: string, purpose: string): Promise<{ sentTo: string }> {
  const code = randomDigits(stepUpCodeLength);
  const outcome = await dependencies.db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, challengeId, customerId);
    if (!challenge) return { kind: 'missing' as const };
    if (challenge.verified_at || challenge.expires_at <= challenge.now) return { kind: 'spent' as const };
    if (challenge.sends >= stepUpMaxSends) return { kind: 'spent' as const };
    const waitedMs = challenge.now.getTime() - challenge.last_sent_at.getTime();
    if (waitedMs < stepUpResendIntervalMs) return { kind: 'wait' as const, seconds: Math.ceil((stepUpResendIntervalMs - waitedMs) / 1_000) };
    await tx.query(
      `UPDATE step_up_challenges SET code_hash = $2, attempts = 0, sends = sends + 1, last_sent_at = now(), expires_at = now() + make_interval(mins => $3) WHERE id = $1`,
      [challenge.id, codeHash(dependencies.secret, challenge.id, code), stepUpCodeValidMinutes],
    );
    await recordAudit(tx, {
      actorType: 'customer',
      actorId: customerId,
      action: 'step_up.code_resent',
      outcome: 'success',
      details: { challengeId: challenge.id },
    });
    return { kind: 'sent' as const, phone: challenge.phone_e164 };
  });
  if (outcome.kind === 'missing') throw new AppError('not_found', notFoundMessage);
  if (outcome.kind === 'spent') throw new AppError('conflict', 'This code request has ended. Start the payment again for a new code.');
  if (outcome.kind === 'wait')
    throw new AppError('rate_limited', 'We just sent a code. You can ask for another shortly.', { retryAfterSeconds: outcome.seconds });
  await dependencies.sms.send({ to: outcome.phone, text: smsText(dependencies, code, purpose) });
  return { sentTo: maskPhone(outcome.phone) };
}

/**
 * When the request is repeated with `X-Step-Up`: inside the transaction that claims the payment,
 * marks the challenge used if it is this customer's, verified within 5 minutes, unused, and for
 * this very key and body. False means the caller must ask for a new challenge.
 */
export async function consumeStepUp(tx: Queryable, customerId: string, challengeId: string, idempotencyKey: string, hash: Buffer): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(challengeId)) return false;
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
