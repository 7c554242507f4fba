import { describe, expect, it } from 'vitest';
import { formatDate, machineDateTime } from './dates.ts';

describe('dates', () => {
  it('writes an API timestamp as a readable English date', () => {
    expect(formatDate('2026-11-21T12:00:00Z')).toBe('Nov 21, 2026');
  });

  it('gives a <time> element the instant in ISO form', () => {
    expect(machineDateTime('2026-11-21T12:00:00+01:00')).toBe('2026-11-21T11:00:00.000Z');
  });

  it('refuses what is not a date rather than printing "Invalid Date"', () => {
    expect(() => formatDate('yesterday-ish')).toThrow(RangeError);
  });
});
