import { describe, expect, it } from 'vitest';
import * as errors from './errors.ts';
import * as http from './http.ts';
import * as session from './session.ts';

describe('zod-free wire names', () => {
  it('match the CSRF names of the session contract', () => {
    expect(http.csrfCookieName).toBe(session.csrfCookieName);
    expect(http.csrfHeaderName).toBe(session.csrfHeaderName);
  });

  it('match the error codes and statuses of the error contract', () => {
    expect(http.errorStatusByCode).toEqual(errors.errorStatusByCode);
    expect(Object.keys(http.errorStatusByCode).sort()).toEqual([...errors.errorCodes].sort());
  });

  it('tell a known error code from an unknown one', () => {
    expect(http.isErrorCode('insufficient_funds')).toBe(true);
    expect(http.isErrorCode('toString')).toBe(false);
    expect(http.isErrorCode('card_declined')).toBe(false);
  });
});
