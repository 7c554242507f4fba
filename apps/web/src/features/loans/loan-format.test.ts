import { describe, expect, it } from 'vitest';
import { formatAprBps, formatCalendarDate } from './loan-format.ts';

describe('formatAprBps', () => {
  it('writes basis points as a percentage with two decimals', () => {
    expect(formatAprBps(1_250)).toBe('12.50%');
    expect(formatAprBps(1_200)).toBe('12.00%');
    expect(formatAprBps(3_600)).toBe('36.00%');
    expect(formatAprBps(5)).toBe('0.05%');
    expect(formatAprBps(0)).toBe('0.00%');
  });

  it('shows a disclosed APR with a fraction of a basis point to the nearest one', () => {
    expect(formatAprBps(1_199.6)).toBe('12.00%');
    expect(formatAprBps(1_234.4)).toBe('12.34%');
  });

  it('refuses what is not an APR', () => {
    expect(() => formatAprBps(-1)).toThrow(RangeError);
    expect(() => formatAprBps(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatCalendarDate', () => {
  it('shows the day the schedule names, whatever the time zone', () => {
    expect(formatCalendarDate('2026-12-24')).toBe('Dec 24, 2026');
    expect(formatCalendarDate('2027-01-01')).toBe('Jan 1, 2027');
  });

  it('refuses what is not a calendar date', () => {
    expect(() => formatCalendarDate('24/12/2026')).toThrow(RangeError);
  });
});
