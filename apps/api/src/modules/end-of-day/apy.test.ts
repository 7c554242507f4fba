import { describe, expect, it } from 'vitest';
import { apyBps, apyEarnedBps } from '../products/service.ts';

/**
 * Regulation DD, Appendix A (12 CFR 1030): the APY every disclosure shows and the APY earned each
 * statement shows, against the appendix's formulas worked here with exact integers, and its
 * examples: Part I, $1,000 at 6.00% compounded monthly earns $61.68 in a year, an APY of 6.17%;
 * Part II, a 30-day period with an average daily balance of $1,000 and $5.25 of interest, an APY
 * earned of 6.58%.
 */
/** Part I's APY = 100 [(1 + Interest/Principal)^(365/Term) - 1] for a year of monthly compounding at `rateBps`, in basis points half up, exactly. */
function appendixApyBps(rateBps: number): number {
  // Interest on $1 over twelve months at rate/12 each month: (1 + r/12)^12 - 1, with r = rateBps / 10,000.
  const scale = 120_000n;
  const grown = (scale + BigInt(rateBps)) ** 12n;
  const interest = grown - scale ** 12n;
  const bps = (interest * 10_000n * 2n + scale ** 12n) / (2n * scale ** 12n);
  return Number(bps);
}

describe('APY (Regulation DD Appendix A, Part I)', () => {
  it('gives 6.17% for 6.00% compounded monthly ($61.68 on $1,000 in a year)', () => {
    expect(apyBps(600)).toBe(617);
    // The example's own figures through the general formula: 100 [(1 + 61.68 / 1,000)^(365/365) - 1].
    expect(apyEarnedBps(6_168n, 100_000n, 365)).toBe(617);
  });

  it('agrees with the formula worked exactly for every published rate and the extremes', () => {
    for (const rate of [0, 1, 5, 10, 25, 150, 175, 200, 225, 250, 300, 499, 1_000, 10_000]) expect(apyBps(rate), `rate ${rate}`).toBe(appendixApyBps(rate));
    expect(apyBps(0)).toBe(0);
    expect(apyBps(150)).toBe(151);
    expect(apyBps(250)).toBe(253);
  });

  it('refuses what is not a rate', () => {
    for (const bad of [-1, 10_001, 1.5, Number.NaN]) expect(() => apyBps(bad)).toThrow(RangeError);
  });
});

describe('APY earned (Regulation DD Appendix A, Part II)', () => {
  it("gives the appendix's 6.58% for $5.25 earned in 30 days on an average daily balance of $1,000", () => {
    expect(apyEarnedBps(525n, 100_000n, 30)).toBe(658);
  });

  it('follows 100 [(1 + interest / balance)^(365 / days) - 1] for other periods', () => {
    // $3.36 over 31 days on an average daily balance of $1,436.61: 2.79%.
    expect(apyEarnedBps(336n, 143_661n, 31)).toBe(279);
    // A 28-day February and a 366-day-year's 29-day one give more for the same interest, as the exponent says.
    expect(apyEarnedBps(500n, 100_000n, 28)).toBeGreaterThan(apyEarnedBps(500n, 100_000n, 29));
  });

  it('is zero without interest or without a positive balance (a negative balance counts as zero)', () => {
    expect(apyEarnedBps(0n, 100_000n, 30)).toBe(0);
    expect(apyEarnedBps(100n, 0n, 30)).toBe(0);
    expect(apyEarnedBps(100n, -5_000n, 30)).toBe(0);
    expect(() => apyEarnedBps(100n, 100_000n, 0)).toThrow(RangeError);
  });
});
