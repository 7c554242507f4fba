import { describe, expect, it } from 'vitest';
import { formatMoney } from './money.ts';

/** The ledger's amounts are PostgreSQL bigint: 2^63 - 1 cents at most. */
const ledgerMaxCents = 9_223_372_036_854_775_807n;

describe('formatMoney', () => {
  it('writes zero as $0.00 in every style, never with a sign', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(0n, 'decimal')).toBe('0.00');
  });

  it('writes the cents of amounts under a dollar with two digits', () => {
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(99n)).toBe('$0.99');
    expect(formatMoney(-7n, 'decimal')).toBe('-0.07');
    expect(formatMoney(-70)).toBe('-$0.70');
  });

  it('writes integer cents as dollars with thousands separators and two decimals', () => {
    expect(formatMoney(123_400)).toBe('$1,234.00');
    expect(formatMoney(100_000_000_07)).toBe('$100,000,000.07');
    expect(formatMoney(100_000)).toBe('$1,000.00');
    expect(formatMoney(99_999)).toBe('$999.99');
  });

  it('writes money out as -$1,234.00 everywhere (never the seed’s $-1,234.00), as -1234.00 in files', () => {
    expect(formatMoney(-123_400)).toBe('-$1,234.00');
    expect(formatMoney(-123_400n)).toBe('-$1,234.00');
    expect(formatMoney(-123_450n, 'decimal')).toBe('-1234.50');
    expect(formatMoney(123_450n, 'decimal')).toBe('1234.50');
  });

  it('writes the largest and smallest amounts the ledger can hold exactly', () => {
    expect(formatMoney(ledgerMaxCents)).toBe('$92,233,720,368,547,758.07');
    expect(formatMoney(-ledgerMaxCents - 1n)).toBe('-$92,233,720,368,547,758.08');
    expect(formatMoney(ledgerMaxCents, 'decimal')).toBe('92233720368547758.07');
  });

  it('writes the largest whole number of cents JSON carries exactly', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
    expect(formatMoney(Number.MIN_SAFE_INTEGER, 'decimal')).toBe('-90071992547409.91');
  });

  it('refuses a number that is not a whole, exact count of cents', () => {
    expect(() => formatMoney(12.5)).toThrow(RangeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 2)).toThrow(RangeError);
    expect(() => formatMoney(Number.NaN)).toThrow(RangeError);
    expect(() => formatMoney(Number.POSITIVE_INFINITY, 'decimal')).toThrow(RangeError);
  });
});
