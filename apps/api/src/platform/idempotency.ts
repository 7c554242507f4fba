import { idempotencyKeySchema } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../db/database.ts';
import { auditAppend, recordAudits, type AuditEntry } from './audit.ts';
import { equalHashes, sha256 } from './crypto.ts';
import { AppError } from './errors.ts';

/**
 * Idempotency keys for money-moving requests (docs/product.md section 5). A key belongs to one customer
 * and one request body: the first request claims it together with the payment it creates, in the
 * same transaction; a replay answers what the first answered and moves no money; the same key with
 * another body is refused with 422.
 */
export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyLookup = { state: 'new' } | { state: 'answered'; response: StoredResponse } | { state: 'unanswered'; paymentId: string };

/** The key from the header, checked; a money-moving POST without one is refused. */
export function idempotencyKeyFrom(header: string | string[] | undefined): string {
  const parsed = idempotencyKeySchema.safeParse(Array.isArray(header) ? header[0] : header);
  if (!parsed.success) {
    throw new AppError('validation_failed', 'Every payment needs an Idempotency-Key header', {
      fields: { 'Idempotency-Key': parsed.error.issues[0]?.message ?? 'required' },
    });
  }
  return parsed.data;
}

/** The same body hashes the same whatever the order of its keys. */
export function requestHash(endpoint: string, body: unknown): Buffer {
  return sha256(`${endpoint}\n${canonicalJson(body)}`);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface KeyRow {
  request_hash: Buffer | Uint8Array;
  payment_id: string;
  response_status: number | null;
  response_body: unknown;
}

export async function lookupIdempotencyKey(db: Queryable, customerId: string, key: string, hash: Buffer): Promise<IdempotencyLookup> {
  const [row] = await db.query<KeyRow>(
    'SELECT request_hash, payment_id, response_status, response_body FROM idempotency_keys WHERE customer_id = $1 AND key = $2',
    [customerId, key],
    { name: 'idempotency_keys_lookup' },
  );
  return idempotencyLookupOf(row, hash);
}

/** What a stored key (or none) means for a request with this hash; the same key with another body is refused. */
export function idempotencyLookupOf(row: KeyRow | undefined, hash: Buffer): IdempotencyLookup {
  if (!row) return { state: 'new' };
  assertSameRequest(row.request_hash, hash);
  if (row.response_status === null) return { state: 'unanswered', paymentId: row.payment_id };
  return { state: 'answered', response: { status: row.response_status, body: row.response_body } };
}

/** A key answers the body it first came with; the same key with another body is refused with 422, whatever the key made. */
export function assertSameRequest(storedHash: Buffer | Uint8Array, hash: Buffer): void {
  if (!equalHashes(Buffer.from(storedHash), hash)) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request. Use a new key for a new payment.');
  }
}

/** Inside the transaction that creates the payment. False when another request claimed it first. */
export async function claimIdempotencyKey(tx: Queryable, customerId: string, key: string, hash: Buffer, paymentId: string): Promise<boolean> {
  const rows = await tx.query(
    'INSERT INTO idempotency_keys (customer_id, key, request_hash, payment_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING key',
    [customerId, key, hash, paymentId],
    { name: 'idempotency_keys_claim' },
  );
  return rows.length === 1;
}

/**
 * Claims several keys with their answers already known, in one statement: a group's payments whose
 * outcome was decided in the same transaction write their key once, answered, instead of claiming
 * it first and answering it after (decision 044). Returns the payment ids whose claim won; a key
 * already held (or held by another transaction, which this waits for) is left out, and the caller
 * must then roll back what it did for that payment.
 *
 * `audits`, the transaction's last writes, are appended by the same statement (decision 088), but
 * only once every key is claimed: a claim may wait for another transaction that holds the same
 * key, and waiting while holding the audit chain's lock would let that transaction, which appends
 * to the chain before it commits, wait for this one.
 */
export async function claimAnsweredIdempotencyKeys(
  tx: Queryable,
  claims: readonly { customerId: string; key: string; hash: Buffer; paymentId: string; response: StoredResponse }[],
  audits: readonly AuditEntry[] = [],
): Promise<Set<string>> {
  if (claims.length === 0) {
    await recordAudits(tx, audits);
    return new Set();
  }
  const claim = `INSERT INTO idempotency_keys (customer_id, key, request_hash, payment_id, response_status, response_body)
     SELECT customer_id, key, decode(request_hash, 'hex'), payment_id, status, body::jsonb
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::integer[], $6::text[])
            WITH ORDINALITY AS c (customer_id, key, request_hash, payment_id, status, body, position)
      ORDER BY position
     ON CONFLICT DO NOTHING RETURNING payment_id`;
  const values = [
    claims.map((c) => c.customerId),
    claims.map((c) => c.key),
    claims.map((c) => c.hash.toString('hex')),
    claims.map((c) => c.paymentId),
    claims.map((c) => c.response.status),
    claims.map((c) => JSON.stringify(c.response.body)),
  ];
  const rows =
    audits.length === 0
      ? await tx.query<{ payment_id: string }>(claim, values, { name: 'idempotency_keys_claim_answered' })
      : await claimThenAudit(tx, claim, values, audits);
  return new Set(rows.map((row) => row.payment_id));
}

/** The claim as a CTE that the audit append waits for; the claim's rows are the statement's answer. */
function claimThenAudit(tx: Queryable, claim: string, values: unknown[], audits: readonly AuditEntry[]): Promise<Array<{ payment_id: string }>> {
  const append = auditAppend(audits, values.length + 1, 'SELECT payment_id FROM claimed');
  return tx.query<{ payment_id: string }>(
    `WITH claimed AS (${claim}),
          audited AS (${append.text})
     SELECT payment_id FROM claimed`,
    [...values, ...append.values],
    { name: 'idempotency_keys_claim_answered_audited' },
  );
}

/** Several payments' answers in one statement (decision 044). */
export async function storeIdempotentResponses(db: Queryable, answers: readonly { paymentId: string; response: StoredResponse }[]): Promise<void> {
  if (answers.length === 0) return;
  await db.query(
    `UPDATE idempotency_keys k SET response_status = a.status, response_body = a.body::jsonb
       FROM unnest($1::uuid[], $2::integer[], $3::text[]) AS a (payment_id, status, body)
      WHERE k.payment_id = a.payment_id`,
    [answers.map((a) => a.paymentId), answers.map((a) => a.response.status), answers.map((a) => JSON.stringify(a.response.body))],
    { name: 'idempotency_keys_answer_many' },
  );
}

export async function storeIdempotentResponse(db: Queryable, paymentId: string, response: StoredResponse): Promise<void> {
  await db.query(
    'UPDATE idempotency_keys SET response_status = $2, response_body = $3 WHERE payment_id = $1',
    [paymentId, response.status, JSON.stringify(response.body)],
    { name: 'idempotency_keys_answer' },
  );
}

/** The answer stored for the request that created this payment; undefined while it has none. */
export async function findStoredResponse(db: Queryable, paymentId: string): Promise<StoredResponse | undefined> {
  const [row] = await db.query<{ response_status: number | null; response_body: unknown }>(
    'SELECT response_status, response_body FROM idempotency_keys WHERE payment_id = $1',
    [paymentId],
  );
  return row?.response_status ? { status: row.response_status, body: row.response_body } : undefined;
}
