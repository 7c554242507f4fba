import { describe, expect, it } from 'vitest';
import { fdxAmount, fdxAmountMaxCents } from './amounts.ts';

describe('FDX amounts from integer cents (issue 38)', () => {
  it('writes a large amount exactly, with its two decimals', () => {
    expect(fdxAmount(123_456_789_012n)).toBe(1_234_567_890.12);
    expect(JSON.stringify({ amount: fdxAmount(123_456_789_012n) })).toBe('{"amount":1234567890.12}');
  });

  it('writes a negative amount and the cents below a dollar exactly', () => {
    expect(JSON.stringify([fdxAmount(-4_250n), fdxAmount(-1n), fdxAmount(5), fdxAmount(0n), fdxAmount(1_999)])).toBe('[-42.5,-0.01,0.05,0,19.99]');
  });

  it('writes amounts whose float division would not come out exact', () => {
    // 0.07 * 100 is 7.000000000000001 in floats: the conversion never goes through such arithmetic.
    expect(JSON.stringify([fdxAmount(7n), fdxAmount(1_005n), fdxAmount(999_999_999_999_999n)])).toBe('[0.07,10.05,9999999999999.99]');
  });

  it('refuses an amount a JSON number cannot carry to the cent', () => {
    expect(() => fdxAmount(fdxAmountMaxCents + 1n)).toThrow(RangeError);
    expect(() => fdxAmount(-fdxAmountMaxCents - 1n)).toThrow(RangeError);
  });
});
