import { describe, expect, it } from 'vitest';
import { effectiveDateAfter } from './service.ts';

/** A NACHA file's effective entry date must be a banking day: the first business day after the bank's today. */
describe("an ACH file's effective entry date", () => {
  it('skips a weekend and a Monday holiday', () => {
    // Friday 2 July 2027, noon in New York; Monday 5 July is Independence Day observed.
    expect(effectiveDateAfter(new Date('2027-07-02T16:00:00Z'), 'America/New_York')).toEqual({ yymmdd: '270706', iso: '2027-07-06' });
  });

  it("counts from the bank's today: late on Tuesday evening in New York, Wednesday is next, not Thanksgiving", () => {
    // 03:00 UTC on Wednesday 25 November 2026 is 22:00 on Tuesday 24 November in New York.
    expect(effectiveDateAfter(new Date('2026-11-25T03:00:00Z'), 'America/New_York')).toEqual({ yymmdd: '261125', iso: '2026-11-25' });
    // A file built on Wednesday afternoon skips Thanksgiving to the Friday.
    expect(effectiveDateAfter(new Date('2026-11-25T18:00:00Z'), 'America/New_York')).toEqual({ yymmdd: '261127', iso: '2026-11-27' });
  });
});
