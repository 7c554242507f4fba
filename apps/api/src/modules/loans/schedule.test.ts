import { loanRules } from '@strongroom/contracts/loans.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actuarialAprBps, addMonths, buildSchedule, discloseSchedule, levelPaymentCents } from './schedule.ts';

const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n);

describe('a loan schedule', () => {
  it('reproduces the published case: 100.00 at 12% over 6 months is 17.25 five times, then 17.28, interest 3.53', () => {
    const schedule = buildSchedule({ principalCents: 10_000n, aprBps: 1_200, termMonths: 6, disbursedOn: '2026-03-15' });
    expect(schedule.map((line) => line.paymentCents)).toEqual([1725n, 1725n, 1725n, 1725n, 1725n, 1728n]);
    expect(schedule.map((line) => line.interestCents)).toEqual([100n, 84n, 67n, 51n, 34n, 17n]);
    expect(sum(schedule.map((line) => line.interestCents))).toBe(353n);
    expect(sum(schedule.map((line) => line.principalCents))).toBe(10_000n);
    expect(schedule.at(-1)?.balanceAfterCents).toBe(0n);
    expect(schedule.map((line) => line.dueDate)).toEqual(['2026-04-15', '2026-05-15', '2026-06-15', '2026-07-15', '2026-08-15', '2026-09-15']);
  });

  it('divides an APR of 0 evenly, the remainder going to the last instalment', () => {
    const schedule = buildSchedule({ principalCents: 100_000n, aprBps: 0, termMonths: 7, disbursedOn: '2026-01-10' });
    expect(schedule.map((line) => line.paymentCents)).toEqual([14_285n, 14_285n, 14_285n, 14_285n, 14_285n, 14_285n, 14_290n]);
    expect(schedule.every((line) => line.interestCents === 0n)).toBe(true);
    expect(discloseSchedule(100_000n, schedule)).toEqual({ amountFinancedCents: 100_000n, financeChargeCents: 0n, aprBps: 0, totalOfPaymentsCents: 100_000n });
  });

  it('makes a one-month loan a single payment of principal plus one month of interest', () => {
    const schedule = buildSchedule({ principalCents: 123_456n, aprBps: 1_800, termMonths: 1, disbursedOn: '2026-05-02' });
    // 1,234.56 at 1.5% a month: 18.5184 -> 18.52.
    expect(schedule).toEqual([
      { number: 1, dueDate: '2026-06-02', paymentCents: 125_308n, principalCents: 123_456n, interestCents: 1_852n, balanceAfterCents: 0n },
    ]);
    expect(discloseSchedule(123_456n, schedule).aprBps).toBeCloseTo(1_800, 0);
  });

  it('pays $100,000 over 84 months at 36% to exactly zero, the principal summing to the amount', () => {
    const schedule = buildSchedule({ principalCents: 10_000_000n, aprBps: 3_600, termMonths: 84, disbursedOn: '2026-01-31' });
    expect(schedule).toHaveLength(84);
    expect(sum(schedule.map((line) => line.principalCents))).toBe(10_000_000n);
    expect(schedule.at(-1)?.balanceAfterCents).toBe(0n);
    const level = levelPaymentCents(10_000_000n, 3_600, 84);
    expect(schedule.slice(0, -1).every((line) => line.paymentCents === level)).toBe(true);
    for (const [index, line] of schedule.entries()) {
      const before = index === 0 ? 10_000_000n : schedule[index - 1]!.balanceAfterCents;
      expect(line.principalCents + line.interestCents).toBe(line.paymentCents);
      expect(before - line.principalCents).toBe(line.balanceAfterCents);
    }
  });

  it('dates each instalment a whole month after disbursement, clamped to the end of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 2)).toBe('2026-03-31');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    const schedule = buildSchedule({ principalCents: 50_000n, aprBps: 999, termMonths: 3, disbursedOn: '2026-01-31' });
    expect(schedule.map((line) => line.dueDate)).toEqual(['2026-02-28', '2026-03-31', '2026-04-30']);
  });
});

describe('the disclosure', () => {
  it('states amount financed, finance charge, total of payments and the APR of the published case', () => {
    const schedule = buildSchedule({ principalCents: 10_000n, aprBps: 1_200, termMonths: 6, disbursedOn: '2026-03-15' });
    const disclosure = discloseSchedule(10_000n, schedule);
    expect(disclosure.amountFinancedCents).toBe(10_000n);
    expect(disclosure.financeChargeCents).toBe(353n);
    expect(disclosure.totalOfPaymentsCents).toBe(10_353n);
    // The rounding of the payments costs a fraction of a basis point: 12.0008%.
    expect(disclosure.aprBps).toBe(1_200.08);
  });

  it('finds the rate of a stream whose answer is known: 1,000 paid back as 1,100 a month later is 10% a month, 120% a year (12,000 bps)', () => {
    expect(actuarialAprBps(100_000n, [110_000n])).toBe(12_000);
  });

  it('discloses an APR within 1/8 of a point of the note rate for any terms the bank may approve', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 50_000n, max: BigInt(loanRules.maxAmountCents) }),
        fc.integer({ min: 0, max: loanRules.maxAprBps }),
        fc.integer({ min: loanRules.minTermMonths, max: loanRules.maxTermMonths }),
        (principalCents, aprBps, termMonths) => {
          const schedule = buildSchedule({ principalCents, aprBps, termMonths, disbursedOn: '2026-02-10' });
          const disclosure = discloseSchedule(principalCents, schedule);
          expect(Math.abs(disclosure.aprBps - aprBps)).toBeLessThanOrEqual(loanRules.aprToleranceBps);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('every schedule', () => {
  it('sums its principal to the amount and never lets a balance go below zero', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1_000_000_000n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 120 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }),
        (principalCents, aprBps, termMonths, day) => {
          const schedule = buildSchedule({ principalCents, aprBps, termMonths, disbursedOn: day.toISOString().slice(0, 10) });
          expect(schedule.length).toBeGreaterThan(0);
          expect(schedule.length).toBeLessThanOrEqual(termMonths);
          expect(sum(schedule.map((line) => line.principalCents))).toBe(principalCents);
          expect(schedule.every((line) => line.balanceAfterCents >= 0n && line.principalCents >= 0n && line.interestCents >= 0n)).toBe(true);
          expect(schedule.at(-1)?.balanceAfterCents).toBe(0n);
        },
      ),
      { numRuns: 300 },
    );
  });
});
