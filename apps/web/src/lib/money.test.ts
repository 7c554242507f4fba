import { describe, expect, it } from 'vitest';
import { formatMoney, formatPrice } from './money.ts';

describe('formatMoney', () => {
  it('writes integer cents as dollars with thousands separators and two decimals', () => {
    expect(formatMoney(123_400)).toBe('$1,234.00');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(100_000_000_07)).toBe('$100,000,000.07');
  });

  it('accepts bigint cents beyond the range of a float', () => {
    expect(formatMoney(9_007_199_254_740_993_01n)).toBe('$9,007,199,254,740,993.01');
  });

  it('writes money out as -$1,234.00, or as $-1,234.00 in the seed’s history style', () => {
    expect(formatMoney(-123_400)).toBe('-$1,234.00');
    expect(formatMoney(-123_400n, 'history')).toBe('$-1,234.00');
    expect(formatMoney(123_400, 'history')).toBe('$1,234.00');
  });

  it('refuses a number that is not a whole count of cents', () => {
    expect(() => formatMoney(12.5)).toThrow(RangeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 2)).toThrow(RangeError);
  });
});

describe('formatPrice', () => {
  it('leaves out .00 for whole dollars and keeps cents otherwise', () => {
    expect(formatPrice(250_000)).toBe('$2,500');
    expect(formatPrice(695)).toBe('$6.95');
  });
});
