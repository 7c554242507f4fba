import { describe, expect, it } from 'vitest';
import * as errors from './errors.ts';
import * as http from './http.ts';

describe('zod-free wire names', () => {
  it('are the codes the error schema accepts', () => {
    expect([...errors.errorCodes].sort()).toEqual(Object.keys(http.errorStatusByCode).sort());
    expect(errors.errorCodeSchema.safeParse('insufficient_funds').success).toBe(true);
  });

  it('tell a known error code from an unknown one', () => {
    expect(http.isErrorCode('insufficient_funds')).toBe(true);
    expect(http.isErrorCode('toString')).toBe(false);
    expect(http.isErrorCode('card_declined')).toBe(false);
  });
});
