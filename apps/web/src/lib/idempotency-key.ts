import { useMemo, useRef } from 'react';
import type { ApiError } from './api-client.ts';

/**
 * Idempotency keys for money-moving requests (docs/product.md section 5). One key names one submission:
 * a retry of the same request, and its repetition after a step-up, carry the same key, so the
 * server moves the money at most once however often the request reaches it.
 */

/** A version 4 UUID. */
export function newIdempotencyKey(): string {
  // randomUUID exists only in secure contexts (HTTPS, localhost); a bank served over plain HTTP on
  // a LAN still has getRandomValues, so the same kind of key is built from that.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Answers after which the submission is over and moved no money: sending the same form again is a
 * new submission with a new key. Any other failure (no answer, a 5xx, 409 while the first attempt
 * is still running, 429, a step-up) leaves the outcome open, and the same key must be used again so
 * that the server can answer with what it already did.
 */
const settlingErrorCodes: ReadonlySet<string> = new Set([
  'validation_failed',
  'bad_request',
  'forbidden',
  'not_found',
  'insufficient_funds',
  'idempotency_key_reused',
]);

export function settlesSubmission(error: ApiError): boolean {
  return settlingErrorCodes.has(error.code);
}

export interface SubmissionKey {
  /** The key of this request body: the one used before while the body is unchanged, else a new one. */
  keyFor: (body: unknown) => string;
  /** The submission is over (done, or refused for good); the next one gets a new key. */
  release: () => void;
}

/** Remembers the key of the submission in progress, by the body it was made for. */
export function useSubmissionKey(): SubmissionKey {
  const current = useRef<{ fingerprint: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(body) {
        // Bodies are built by the forms with their fields in a fixed order, so equal bodies
        // serialise to the same text.
        const fingerprint = JSON.stringify(body);
        if (current.current?.fingerprint !== fingerprint) current.current = { fingerprint, key: newIdempotencyKey() };
        return current.current.key;
      },
      release() {
        current.current = null;
      },
    }),
    [],
  );
}
