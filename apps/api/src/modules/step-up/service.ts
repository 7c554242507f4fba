import { randomUUID } from 'node:crypto';
import { stepUpCodeLength, stepUpMaxAttempts, type StepUpMethod } from '@strongroom/contracts/step-up.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { accountFrozenMessage, openFreezeOf } from '../../platform/account-freeze.ts';
import { recordAudit } from '../../platform/audit.ts';
import { equalHashes, keyedHash, randomDigits } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { requestHash } from '../../platform/idempotency.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { checkCustomerTotp, spendRecoveryCode } from '../../platform/second-factors.ts';
import { challengeMessage, maskPhone, notFoundMessage, smsText, wrongCodeMessage } from './messages.ts';
import {
  countWrongAnswer,
  findOpenChallenge,
  findOpenChallengeFor,
  insertChallenge,
  lockChallenge,
  lockCustomerChallenges,
  markVerified,
  openChallengeCount,
  replaceCode,
  useVerifiedChallenge,
  verifiedPhoneOf,
  type ChallengeRow,
  type VerifiedMethod,
} from './repository.ts';

export { maskPhone } from './messages.ts';

/**
 * Step-up one-time passwords (docs/product.md D10). A challenge authorises exactly one request: the
 * customer's, with one Idempotency-Key and one body (which holds the amount). It is answered by a
 * 6-digit code: from the customer's authenticator app if they enrolled one (or one of its recovery
 * codes), or sent by SMS, stored as a keyed hash, living 10 minutes; by a passkey through
 * `completeStepUpChallenge` (part B). 5 tries; used once; once verified, the request must be
 * repeated within 5 minutes. Anything else gets a new challenge. The SMS goes at once only when it
 * is the customer's one method; otherwise when they ask for it (docs/decisions/029). The methods
 * other than SMS are given when the app is built (app.ts; docs/decisions/063).
 */
export interface StepUpDependencies {
  db: Database;
  sms: SmsSender;
  secret: Buffer;
  /** Opens the authenticator app's sealed secret. */
  encryptionKey: Buffer;
  bankName: string;
  methods: StepUpMethods;
}

/** Whether a customer can answer with a method other than SMS. */
export type StepUpMethodProvider = (db: Queryable, customerId: string) => Promise<boolean>;

/** The ways of answering besides SMS, each with how to tell whether a customer has it (app.ts gives them). */
export type StepUpMethods = Partial<Record<Exclude<StepUpMethod, 'sms'>, StepUpMethodProvider>>;

export function stepUpDependencies(dependencies: {
  db: Database;
  sms: SmsSender;
  config: { secrets: { sessionSecret: Buffer; encryptionKey: Buffer }; bankName: string };
  stepUpMethods: StepUpMethods;
}): StepUpDependencies {
  return {
    db: dependencies.db,
    sms: dependencies.sms,
    secret: dependencies.config.secrets.sessionSecret,
    encryptionKey: dependencies.config.secrets.encryptionKey,
    bankName: dependencies.config.bankName,
    methods: dependencies.stepUpMethods,
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

/**
 * The step-up of a change to the account's protection (a password, a second factor, contact
 * details, a passkey): one action per customer, so its key and hash name the change and the
 * customer, never the body (a hash of a password must not be stored); `purpose` words it for the
 * SMS. It moves no money, so a customer whom staff froze may still make it.
 */
export function accountChangeStepUp(actor: { customerId: string; requestId: string }, change: string, purpose: string): StepUpRequest {
  return {
    customerId: actor.customerId,
    idempotencyKey: `${change}:${actor.customerId}`,
    requestHash: requestHash(change, { customerId: actor.customerId }),
    amountCents: 0n,
    purpose,
    requestId: actor.requestId,
    guardsMoney: false,
  };
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

/** The customer's methods, best first; SMS is always there and always last. */
export async function stepUpMethodsOf(dependencies: Pick<StepUpDependencies, 'methods'>, db: Queryable, customerId: string): Promise<StepUpMethod[]> {
  const order: Exclude<StepUpMethod, 'sms'>[] = ['passkey', 'totp'];
  const methods: StepUpMethod[] = [];
  for (const method of order) {
    const provider = dependencies.methods[method];
    if (provider && (await provider(db, customerId))) methods.push(method);
  }
  return [...methods, 'sms'];
}

function codeHash(secret: Buffer, challengeId: string, code: string): Buffer {
  return keyedHash(secret, `step-up:${challengeId}:${code}`);
}

async function phoneOf(db: Queryable, customerId: string): Promise<string> {
  const phone = await verifiedPhoneOf(db, customerId);
  if (!phone) throw new AppError('forbidden', 'Verify a phone number before making this payment.');
  return phone;
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
  const methods = await stepUpMethodsOf(dependencies, dependencies.db, request.customerId);
  const smsNow = methods.length === 1;
  const id = randomUUID();
  const code = smsNow ? randomDigits(stepUpCodeLength) : undefined;
  const outcome = await dependencies.db.transaction(async (tx) => {
    await lockCustomerChallenges(tx, request.customerId);
    const open = await findOpenChallengeFor(tx, request);
    if (open) return { kind: 'reused' as const, id: open };
    const waiting = await openChallengeCount(tx, request.customerId, stepUpOpenChallengeWindowMinutes);
    if (waiting.count >= stepUpOpenChallengeLimit) return { kind: 'limited' as const, retryAfterSeconds: waiting.retryAfterSeconds };
    await insertChallenge(tx, {
      ...request,
      id,
      phone,
      codeHash: code === undefined ? null : codeHash(dependencies.secret, id, code),
      sends: smsNow ? 1 : 0,
      guardsMoney: request.guardsMoney ?? true,
    });
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
    if (code !== undefined) await dependencies.sms.send({ to: phone, text: smsText(dependencies.bankName, code, request.purpose) });
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
      await countWrongAnswer(tx, challenge.id);
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
    const message = wrongCodeMessage(outcome.replayed, outcome.attemptsLeft);
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
  return findOpenChallenge(db, customerId, challengeId);
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
    await replaceCode(tx, challenge.id, codeHash(dependencies.secret, challenge.id, code));
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
  await dependencies.sms.send({ to: outcome.phone, text: smsText(dependencies.bankName, code, outcome.purpose) });
  return { sentTo: maskPhone(outcome.phone) };
}

/**
 * When the request is repeated with `X-Step-Up`: inside the transaction that claims the payment,
 * marks the challenge used if it is this customer's, verified within 5 minutes, unused, and for
 * this very key and body. False means the caller must ask for a new challenge.
 */
export async function consumeStepUp(tx: Queryable, customerId: string, challengeId: string, idempotencyKey: string, hash: Buffer): Promise<boolean> {
  return useVerifiedChallenge(tx, customerId, challengeId, idempotencyKey, hash);
}
