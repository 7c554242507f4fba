import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idempotencyKeySchema } from '@strongroom/contracts/payments.ts';
import { ApiError } from './api-client.ts';
import { newIdempotencyKey, settlesSubmission, useSubmissionKey } from './idempotency-key.ts';

afterEach(() => vi.unstubAllGlobals());

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('are version 4 UUIDs the API accepts, also where randomUUID is missing (plain HTTP on a LAN)', () => {
    expect(newIdempotencyKey()).toMatch(uuidV4);
    vi.stubGlobal('crypto', { getRandomValues: (bytes: Uint8Array) => bytes.fill(0xff) });
    const key = newIdempotencyKey();
    expect(key).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(idempotencyKeySchema.safeParse(key).success).toBe(true);
  });

  it('stay the same for the same body until the submission is over, and change with the body', () => {
    const { result } = renderHook(() => useSubmissionKey());
    const first = result.current.keyFor({ amountCents: 100 });
    expect(result.current.keyFor({ amountCents: 100 })).toBe(first);
    const changed = result.current.keyFor({ amountCents: 200 });
    expect(changed).not.toBe(first);
    result.current.release();
    expect(result.current.keyFor({ amountCents: 200 })).not.toBe(changed);
  });

  it('are let go after an answer that moved no money, and kept while the outcome is open', () => {
    const error = (code: ApiError['code'], status: number) => new ApiError({ status, code, message: code });
    expect(settlesSubmission(error('insufficient_funds', 422))).toBe(true);
    expect(settlesSubmission(error('validation_failed', 400))).toBe(true);
    expect(settlesSubmission(error('network_error', 0))).toBe(false);
    expect(settlesSubmission(error('internal_error', 500))).toBe(false);
    expect(settlesSubmission(error('conflict', 409))).toBe(false);
    expect(settlesSubmission(error('step_up_required', 403))).toBe(false);
  });
});
