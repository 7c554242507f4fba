/**
 * Annual percentage yields as Regulation DD's Appendix A defines them (docs/deposit-products.md),
 * in basis points rounded to the nearest one (0.01%). Rates are not money: the disclosure's APY is
 * worked out exactly in integers; APY earned has a fractional power, so it is a double, rounded once.
 */

/**
 * Appendix A, Part I, for an account without a maturity whose interest compounds monthly: what
 * $1 earns in a year at `rateBps` compounded twelve times, APY = (1 + rate/12)^12 - 1.
 * 600 bps gives 617 (Appendix A's example: $61.68 on $1,000, 6.17%).
 */
function computeApyBps(rateBps: number): number {
  if (!Number.isInteger(rateBps) || rateBps < 0 || rateBps > 10_000) throw new RangeError(`not a rate in basis points: ${rateBps}`);
  // (1 + r/12) with r = rateBps / 10,000 is (120,000 + rateBps) / 120,000.
  const base = 120_000n;
  const numerator = (base + BigInt(rateBps)) ** 12n - base ** 12n;
  const denominator = base ** 12n;
  // In basis points, rounded half up: 10,000 x numerator / denominator.
  return Number((20_000n * numerator + denominator) / (2n * denominator));
}

/** Rates repeat (the catalogue's handful, on every accounts page): each is worked out once. */
const apyOfRate = new Map<number, number>();

export function apyBps(rateBps: number): number {
  let apy = apyOfRate.get(rateBps);
  if (apy === undefined) {
    apy = computeApyBps(rateBps);
    apyOfRate.set(rateBps, apy);
  }
  return apy;
}

/**
 * Appendix A, Part II: the APY earned in a statement period, 100 x [(1 + interest / balance)^(365 / days) - 1],
 * where balance is the average daily balance of the period. Zero when the balance or the interest is not above zero.
 */
export function apyEarnedBps(interestCents: bigint, averageDailyBalanceCents: bigint, days: number): number {
  if (!Number.isInteger(days) || days <= 0) throw new RangeError(`a period has at least one day: ${days}`);
  if (interestCents <= 0n || averageDailyBalanceCents <= 0n) return 0;
  const ratio = Number(interestCents) / Number(averageDailyBalanceCents);
  return Math.round(((1 + ratio) ** (365 / days) - 1) * 10_000);
}
