import { randomUUID } from 'node:crypto';
import { stepUpCodeLength, stepUpCodeValidMinutes, stepUpMaxAttempts, stepUpVerifiedValidMinutes, type StepUpMethod } from '@strongroom/contracts/step-up.ts';
import type { Database, Queryable } from '../db/database.ts';
import { accountFrozenMessage, openFreezeOf } from './account-freeze.ts';
import { recordAudit } from './audit.ts';
import { equalHashes, keyedHash, randomDigits } from './crypto.ts';
import { AppError } from './errors.ts';
import type { SmsSender } from './messaging/sms-sender.ts';
import { checkCustomerTotp, hasConfirmedTotp, spendRecoveryCode } from './second-factors.ts';

/**
 * Step-up one-time passwords (docs/product.md D10). A challenge authorises exactly one request: the
 * customer's, with one Idempotency-Key and one body (which holds the amount). It is answered by a
 * 6-digit code: from the customer's authenticator app if they enrolled one (or one of its recovery
 * codes), or sent by SMS, stored as a keyed hash, living 10 minutes; by a passkey through
 * `completeStepUpChallenge` (part B). 5 tries; used once; once verified, the request must be
 * repeated within 5 minutes. Anything else gets a new challenge. The SMS goes at once only when it
 * is the customer's one method; otherwise when they ask for it (docs/decisions/029).
 */
export interface StepUpDependencies {
  db: Database;
  sms: SmsSender;
  secret: Buffer;
  /** Opens the authenticator app's sealed secret. */
  encryptionKey: Buffer;
  bankName: string;
}

export function stepUpDependencies(dependencies: {
  db: Database;
  sms: SmsSender;
  config: { secrets: { sessionSecret: Buffer; encryptionKey: Buffer }; bankName: string };
}): StepUpDependencies {
  return {
    db: dependencies.db,
    sms: dependencies.sms,
    secret: dependencies.config.secrets.sessionSecret,
    encryptionKey: dependencies.config.secrets.encryptionKey,
    bankName: dependencies.config.bankName,
  };
}

export interface StepUpRequest {
  customerId: string;
  idempotencyKey: string;
  requestHash: Buffer;
  amountCents: bigint;
  /** Words for the SMS, such as 'a transfer of $50.00'. Never an account or card number. */
  purpose: string;
  requestId: string;
  /**
   * False for a change that protects the account (password, second factor): a customer whom staff
   * froze may still make it. Default true: a frozen customer completes no money challenge.
   */
  guardsMoney?: boolean;
}

/** Codes sent for one challenge, the first included; then the customer starts a new one. */
export const stepUpMaxSends = 5;
/**
 * Challenges one customer may have waiting (made in the last `stepUpOpenChallengeWindowMinutes` and
 * not answered) before new ones are refused with 429: each may text a code, and a script sending
 * payments without `X-Step-Up` must not turn the bank into an SMS cannon (issue 30 item 11).
 */
export const stepUpOpenChallengeLimit = 5;
export const stepUpOpenChallengeWindowMinutes = 10;
/** Between two sends for one challenge. */
export const stepUpResendIntervalMs = 30_000;

/** Whether a customer can answer with a method other than SMS; see `registerStepUpMethod`. */
export type StepUpMethodProvider = (db: Queryable, customerId: string) => Promise<boolean>;

const methodProviders = new Map<Exclude<StepUpMethod, 'sms'>, StepUpMethodProvider>([['totp', hasConfirmedTotp]]);

/**
 * Another module offers its way of answering (the passkeys module: 'passkey'); keyed by name, so
 * registering again replaces. It completes challenges with `completeStepUpChallenge`.
 */
export function registerStepUpMethod(method: Exclude<StepUpMethod, 'sms'>, provider: StepUpMethodProvider): void {
  methodProviders.set(method, provider);
}

/** The customer's methods, best first; SMS is always there and always last. */
export async function stepUpMethodsOf(db: Queryable, customerId: string): Promise<StepUpMethod[]> {
  const order: Exclude<StepUpMethod, 'sms'>[] = ['passkey', 'totp'];
  const methods: StepUpMethod[] = [];
  for (const method of order) {
    const provider = methodProviders.get(method);
    if (provider && (await provider(db, customerId))) methods.push(method);
  }
  return [...methods, 'sms'];
}

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

function challengeMessage(methods: readonly StepUpMethod[], phone: string): string {
  if (methods.includes('totp')) {
    return `For your security, enter the ${stepUpCodeLength}-digit code your authenticator app shows, or we can text a code to ${maskPhone(phone)}.`;
  }
  if (methods.includes('passkey')) return `For your security, confirm with your passkey, or we can text a code to ${maskPhone(phone)}.`;
  return `For your security, enter the ${stepUpCodeLength}-digit code we sent to ${maskPhone(phone)}.`;
}

/**
 * Creates a challenge (sending its SMS code when SMS is the one method) and answers the 403 the
 * client reacts to. The same request again (same customer, Idempotency-Key and body) while its
 * challenge is still open answers that challenge again and sends nothing; a customer with
 * `stepUpOpenChallengeLimit` open challenges gets 429 and no new one. One customer's challenges are
 * made one at a time (a lock for the customer), so twenty requests at once make one challenge
 * and one SMS, or at most the limit when each is a different request.
 */
export async function requireStepUp(dependencies: StepUpDependencies, request: StepUpRequest): Promise<never> {
  const phone = await phoneOf(dependencies.db, request.customerId);
  const methods = await stepUpMethodsOf(dependencies.db, request.customerId);
  const smsNow = methods.length === 1;
  const id = randomUUID();
  const code = smsNow ? randomDigits(stepUpCodeLength) : undefined;
  const outcome = await dependencies.db.transaction(async (tx) => {
    await lockCustomerChallenges(tx, request.customerId);
    const open = await findOpenChallengeFor(tx, request);
    if (open) return { kind: 'reused' as const, id: open };
    const waiting = await openChallengeCount(tx, request.customerId);
    if (waiting.count >= stepUpOpenChallengeLimit) return { kind: 'limited' as const, retryAfterSeconds: waiting.retryAfterSeconds };
    await tx.query(
      `INSERT INTO step_up_challenges (id, customer_id, idempotency_key, request_hash, amount_cents, phone_e164, code_hash, sends, guards_money, purpose, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(mins => $11))`,
      [
        id,
        request.customerId,
        request.idempotencyKey,
        request.requestHash,
        request.amountCents.toString(),
        phone,
        code === undefined ? null : codeHash(dependencies.secret, id, code),
        smsNow ? 1 : 0,
        request.guardsMoney ?? true,
        request.purpose,
        stepUpCodeValidMinutes,
      ],
    );
    return { kind: 'created' as const, id };
  });
  if (outcome.kind === 'limited') {
    await recordAudit(dependencies.db, {
      actorType: 'customer',
      actorId: request.customerId,
      action: 'step_up.challenge_refused',
      outcome: 'failure',
      requestId: request.requestId,
      details: { reason: 'too_many_open_challenges', limit: stepUpOpenChallengeLimit },
    });
    throw new AppError(
      'rate_limited',
      `You have asked for ${stepUpOpenChallengeLimit} codes in the last few minutes. Enter a code we sent, or try again later.`,
      { retryAfterSeconds: outcome.retryAfterSeconds },
    );
  }
  if (outcome.kind === 'created') {
    if (code !== undefined) await dependencies.sms.send({ to: phone, text: smsText(dependencies, code, request.purpose) });
    await recordAudit(dependencies.db, {
      actorType: 'customer',
      actorId: request.customerId,
      action: smsNow ? 'step_up.challenge_sent' : 'step_up.challenge_created',
      outcome: 'success',
      requestId: request.requestId,
      details: { challengeId: id, methods: methods.join(',') },
    });
  }
  throw new AppError('step_up_required', challengeMessage(methods, phone), { challengeId: outcome.id, methods });
}

/**
 * Until the transaction ends, this customer's challenges are made one at a time. An advisory lock
 * rather than the customer's row: payments lock that row for their own reasons, and a challenge
 * must not wait for a payment (nor make one wait).
 */
async function lockCustomerChallenges(tx: Queryable, customerId: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('step-up:' || $1::text, 0))", [customerId], { name: 'step_up_lock_customer' });
}

/** The open challenge of this very request (customer, key and body): not answered, not expired, tries left. */
async function findOpenChallengeFor(tx: Queryable, request: StepUpRequest): Promise<string | undefined> {
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
async function openChallengeCount(tx: Queryable, customerId: string): Promise<{ count: number; retryAfterSeconds: number }> {
  const [row] = await tx.query<{ count: number; retry_after_seconds: number | null }>(
    `SELECT count(*)::integer AS count,
            ceil(extract(epoch FROM min(created_at) + make_interval(mins => $2) - now()))::integer AS retry_after_seconds
       FROM step_up_challenges
      WHERE customer_id = $1 AND verified_at IS NULL AND created_at > now() - make_interval(mins => $2)`,
    [customerId, stepUpOpenChallengeWindowMinutes],
  );
  return { count: row?.count ?? 0, retryAfterSeconds: Math.max(1, row?.retry_after_seconds ?? 1) };
}

interface ChallengeRow {
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

async function lockChallenge(tx: Queryable, challengeId: string, customerId: string): Promise<ChallengeRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(challengeId)) return undefined;
  const [row] = await tx.query<ChallengeRow>(
    `SELECT id, customer_id, idempotency_key, request_hash, phone_e164, code_hash, attempts, sends, guards_money, purpose, created_at, last_sent_at, expires_at,
            verified_at, used_at, now() AS now
     FROM step_up_challenges WHERE id = $1 AND customer_id = $2 FOR UPDATE`,
    [challengeId, customerId],
  );
  return row;
}

const notFoundMessage = 'This code request was not found. Start the payment again.';

type AnswerKind = 'missing' | 'frozen' | 'spent';

/**
 * Whether a challenge may still be answered. A frozen customer answers no money challenge (nor an
 * unknown one: a guessed id tells nothing), but may answer one for a password or second factor.
 */
async function answerable(tx: Queryable, challenge: ChallengeRow | undefined, customerId: string): Promise<AnswerKind | undefined> {
  if (!challenge || challenge.guards_money) {
    if (await openFreezeOf(tx, customerId)) return 'frozen';
  }
  if (!challenge) return 'missing';
  if (challenge.verified_at) return 'spent';
  if (challenge.expires_at <= challenge.now || challenge.attempts >= stepUpMaxAttempts) return 'spent';
  return undefined;
}

function refuse(kind: AnswerKind): never {
  if (kind === 'frozen') throw new AppError('account_frozen', accountFrozenMessage);
  if (kind === 'missing') throw new AppError('not_found', notFoundMessage);
  throw new AppError('conflict', 'This code has expired or was already used. Ask for a new one.');
}

type VerifiedMethod = 'sms' | 'totp' | 'recovery_code' | 'passkey';

async function markVerified(tx: Queryable, challengeId: string, method: VerifiedMethod): Promise<void> {
  await tx.query('UPDATE step_up_challenges SET verified_at = now(), verified_method = $2 WHERE id = $1', [challengeId, method]);
}

/** Which of the customer's answers `code` is: the app's code, a recovery code, or the SMS code. */
async function matchAnswer(
  dependencies: StepUpDependencies,
  tx: Queryable,
  challenge: ChallengeRow,
  code: string,
): Promise<VerifiedMethod | 'replayed' | undefined> {
  if (/^\d{6}$/.test(code)) {
    const totp = await checkCustomerTotp(tx, dependencies, challenge.customer_id, code);
    if (totp === 'accepted') return 'totp';
    if (challenge.code_hash && equalHashes(Buffer.from(challenge.code_hash), codeHash(dependencies.secret, challenge.id, code))) return 'sms';
    return totp === 'replayed' ? 'replayed' : undefined;
  }
  return (await spendRecoveryCode(tx, { hashKey: dependencies.secret }, challenge.customer_id, code)) ? 'recovery_code' : undefined;
}

/**
 * `POST /step-up/{id}`: the SMS code, the authenticator app's code or a recovery code. Wrong code
 * 400 (tries left), spent or expired 409, someone else's 404, a frozen customer's money challenge 403.
 */
export async function verifyStepUp(dependencies: StepUpDependencies, customerId: string, challengeId: string, code: string, requestId: string): Promise<void> {
  const outcome = await dependencies.db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, challengeId, customerId);
    const refused = await answerable(tx, challenge, customerId);
    if (refused || !challenge) return { kind: refused ?? ('missing' as const) };
    const method = await matchAnswer(dependencies, tx, challenge, code);
    if (method === undefined || method === 'replayed') {
      await tx.query('UPDATE step_up_challenges SET attempts = attempts + 1 WHERE id = $1', [challenge.id]);
      return { kind: 'wrong' as const, replayed: method === 'replayed', attemptsLeft: stepUpMaxAttempts - challenge.attempts - 1 };
    }
    await markVerified(tx, challenge.id, method);
    if (method === 'recovery_code') {
      await recordAudit(tx, {
        actorType: 'customer',
        actorId: customerId,
        action: 'customer.recovery_code_used',
        outcome: 'success',
        requestId,
        details: { challengeId },
      });
    }
    return { kind: 'verified' as const, method };
  });
  await recordAudit(dependencies.db, {
    actorType: 'customer',
    actorId: customerId,
    action: 'step_up.verify',
    outcome: outcome.kind === 'verified' ? 'success' : 'failure',
    requestId,
    details: { challengeId, outcome: outcome.kind, ...(outcome.kind === 'verified' ? { method: outcome.method } : {}) },
  });
  if (outcome.kind === 'wrong') {
    const start = outcome.replayed ? 'That code was already used: wait for the next one your app shows.' : 'That code is not right.';
    const message =
      outcome.attemptsLeft > 0
        ? `${start} ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'try' : 'tries'} left.`
        : `${start.replace(/\.$/, '')}, and no tries are left. Ask for a new one.`;
    throw new AppError('validation_failed', message, { fields: { code: message } });
  }
  if (outcome.kind !== 'verified') refuse(outcome.kind);
}

/** A challenge that may still be answered, for a module that answers it another way (passkeys). */
export async function findOpenStepUpChallenge(
  db: Queryable,
  customerId: string,
  challengeId: string,
): Promise<{ id: string; guardsMoney: boolean } | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(challengeId)) return undefined;
  const [row] = await db.query<{ id: string; guards_money: boolean }>(
    `SELECT id, guards_money FROM step_up_challenges
      WHERE id = $1 AND customer_id = $2 AND verified_at IS NULL AND expires_at > now() AND attempts < $3`,
    [challengeId, customerId, stepUpMaxAttempts],
  );
  return row && { id: row.id, guardsMoney: row.guards_money };
}

/**
 * Marks a challenge verified by a method checked elsewhere (a passkey assertion, part B), with the
 * same refusals as `verifyStepUp`: not_found, conflict (expired or already verified), account_frozen.
 */
export async function completeStepUpChallenge(
  db: Database,
  input: { customerId: string; challengeId: string; method: 'passkey'; requestId: string },
): Promise<void> {
  const refused = await db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, input.challengeId, input.customerId);
    const kind = await answerable(tx, challenge, input.customerId);
    if (kind || !challenge) return kind ?? 'missing';
    await markVerified(tx, challenge.id, input.method);
    return undefined;
  });
  await recordAudit(db, {
    actorType: 'customer',
    actorId: input.customerId,
    action: 'step_up.verify',
    outcome: refused ? 'failure' : 'success',
    requestId: input.requestId,
    details: { challengeId: input.challengeId, outcome: refused ?? 'verified', method: input.method },
  });
  if (refused) refuse(refused);
}

/**
 * A new SMS code for the same challenge: the old one stops working; at most one every 30 seconds.
 * The first text of a challenge whose customer has another method goes without waiting.
 */
export async function resendStepUp(
  dependencies: StepUpDependencies,
  customerId: string,
  challengeId: string,
  fallbackPurpose: string,
): Promise<{ sentTo: string }> {
  const code = randomDigits(stepUpCodeLength);
  const outcome = await dependencies.db.transaction(async (tx) => {
    const challenge = await lockChallenge(tx, challengeId, customerId);
    if (!challenge) return { kind: 'missing' as const };
    if (challenge.verified_at || challenge.expires_at <= challenge.now) return { kind: 'spent' as const };
    if (challenge.sends >= stepUpMaxSends) return { kind: 'spent' as const };
    const waitedMs = challenge.now.getTime() - challenge.last_sent_at.getTime();
    if (challenge.sends > 0 && waitedMs < stepUpResendIntervalMs)
      return { kind: 'wait' as const, seconds: Math.ceil((stepUpResendIntervalMs - waitedMs) / 1_000) };
    await tx.query(
      `UPDATE step_up_challenges SET code_hash = $2, attempts = 0, sends = sends + 1, last_sent_at = now(), expires_at = now() + make_interval(mins => $3) WHERE id = $1`,
      [challenge.id, codeHash(dependencies.secret, challenge.id, code), stepUpCodeValidMinutes],
    );
    await recordAudit(tx, {
      actorType: 'customer',
      actorId: customerId,
      action: challenge.sends === 0 ? 'step_up.challenge_sent' : 'step_up.code_resent',
      outcome: 'success',
      details: { challengeId: challenge.id },
    });
    return { kind: 'sent' as const, phone: challenge.phone_e164, purpose: challenge.purpose ?? fallbackPurpose };
  });
  if (outcome.kind === 'missing') throw new AppError('not_found', notFoundMessage);
  if (outcome.kind === 'spent') throw new AppError('conflict', 'This code request has ended. Start the payment again for a new code.');
  if (outcome.kind === 'wait')
    throw new AppError('rate_limited', 'We just sent a code. You can ask for another shortly.', { retryAfterSeconds: outcome.seconds });
  await dependencies.sms.send({ to: outcome.phone, text: smsText(dependencies, code, outcome.purpose) });
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
