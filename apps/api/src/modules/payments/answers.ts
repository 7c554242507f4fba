import { errorResponseSchema } from '@strongroom/contracts/errors.ts';
import { errorStatusByCode } from '@strongroom/contracts/http.ts';
import { paymentResponseSchema, type Payment, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import type { AuditEntry } from '../../platform/audit.ts';
import {
  claimAnsweredIdempotencyKeys,
  findStoredResponse,
  idempotencyLookupOf,
  lookupIdempotencyKey,
  storeIdempotentResponses,
  type IdempotencyLookup,
  type KeyRow,
  type StoredResponse,
} from '../../platform/idempotency.ts';

/**
 * What a payment request comes to: the payment made (whatever its status: completed, pending or
 * held), or a refusal the customer can act on. Everything else a request can meet (a missing
 * account, a step-up to give) is an AppError thrown before any money moves.
 */
export type PaymentRefusal = { code: 'insufficient_funds'; message: string };
export type PaymentResult = { outcome: 'made'; payment: Payment } | { outcome: 'refused'; refusal: PaymentRefusal };

export const insufficientFundsMessage = 'Insufficient funds: the amount is more than the available balance of this account.';

/**
 * The idempotency store (platform/idempotency.ts) keeps a payment's first answer as the response
 * it was, so that a replay answers exactly the same. This is the one adapter between that record
 * and a PaymentResult; a replayed payment is the payment as it was presented the first time.
 */
function storedResponseOf(result: PaymentResult): StoredResponse {
  if (result.outcome === 'made') return { status: 201, body: { transfer: result.payment } satisfies PaymentResponse };
  return { status: errorStatusByCode[result.refusal.code], body: { error: result.refusal } };
}

function resultOfStoredResponse(stored: StoredResponse): PaymentResult {
  if (stored.status === 201) return { outcome: 'made', payment: paymentResponseSchema.parse(stored.body).transfer };
  const { error } = errorResponseSchema.parse(stored.body);
  if (error.code !== 'insufficient_funds') throw new Error(`a stored payment answer has an unexpected code: ${error.code}`);
  return { outcome: 'refused', refusal: { code: error.code, message: error.message } };
}

/** Several payments' answers in one statement. */
export async function storePaymentAnswers(tx: Queryable, answers: readonly { paymentId: string; result: PaymentResult }[]): Promise<void> {
  await storeIdempotentResponses(
    tx,
    answers.map(({ paymentId, result }) => ({ paymentId, response: storedResponseOf(result) })),
  );
}

/** The Idempotency-Key a payment claims. */
export interface PaymentKey {
  customerId: string;
  key: string;
  hash: Buffer;
}

/**
 * Another request holds a key this transaction meant to claim with its answer: the transaction
 * must be rolled back, and its payments claimed again one at a time (commit-group.ts).
 */
export class IdempotencyKeyTaken extends Error {
  constructor(readonly paymentIds: readonly string[]) {
    super(`an Idempotency-Key of ${paymentIds.length} payment(s) was claimed by another request first`);
  }
}

/** A payment decided in this transaction whose key is still to be claimed, with its answer. */
export interface PaymentAnswerClaim {
  paymentId: string;
  key: PaymentKey;
  result: PaymentResult;
}

/**
 * Claims the keys of payments decided in this transaction, each with its answer, and appends the
 * transaction's audit entries, in one statement (the entries after the claims: decision 088);
 * throws IdempotencyKeyTaken if one was held.
 */
export async function claimPaymentAnswers(tx: Queryable, answers: readonly PaymentAnswerClaim[], audits: readonly AuditEntry[] = []): Promise<void> {
  const won = await claimAnsweredIdempotencyKeys(
    tx,
    answers.map(({ paymentId, key, result }) => ({ ...key, paymentId, response: storedResponseOf(result) })),
    audits,
  );
  const lost = answers.filter(({ paymentId }) => !won.has(paymentId)).map(({ paymentId }) => paymentId);
  if (lost.length > 0) throw new IdempotencyKeyTaken(lost);
}

export type EarlierRequest = { state: 'new' } | { state: 'answered'; result: PaymentResult } | { state: 'unanswered'; paymentId: string };

/** What an earlier request with this key came to; the same key with another body is refused (idempotency_key_reused). */
export async function earlierRequest(db: Queryable, customerId: string, idempotencyKey: string, hash: Buffer): Promise<EarlierRequest> {
  return earlierRequestOf(await lookupIdempotencyKey(db, customerId, idempotencyKey, hash));
}

/** The same, from the key's row read with something else (findPayer). */
export function earlierRequestFromRow(row: KeyRow | undefined, hash: Buffer): EarlierRequest {
  return earlierRequestOf(idempotencyLookupOf(row, hash));
}

function earlierRequestOf(earlier: IdempotencyLookup): EarlierRequest {
  return earlier.state === 'answered' ? { state: 'answered', result: resultOfStoredResponse(earlier.response) } : earlier;
}

/** The answer stored for the request that created this payment, if it has one yet. */
export async function storedPaymentAnswer(db: Queryable, paymentId: string): Promise<PaymentResult | undefined> {
  const stored = await findStoredResponse(db, paymentId);
  return stored ? resultOfStoredResponse(stored) : undefined;
}
