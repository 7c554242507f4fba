import { describe, expect, it } from 'vitest';
import { cutoffNotice, dueDatesOf, formatDay, movedWording, paidOn, shortMonthWording } from './schedule-dates.ts';

describe('schedule dates', () => {
  it('writes a bank date the same in every time zone, with its weekday', () => {
    expect(formatDay('2026-03-14')).toBe('Sat 14 Mar');
    expect(formatDay('2026-03-14', { withYear: true })).toBe('Sat 14 Mar 2026');
  });

  it('says when a payment due on a weekend is paid the business day before', () => {
    expect(movedWording('2026-03-14', '2026-03-13')).toBe('due Sat 14 Mar, paid Fri 13 Mar (the business day before)');
    expect(movedWording('2026-03-13', '2026-03-13')).toBeNull();
  });

  it('pays a 31st on the last day of a shorter month, and says so', () => {
    expect(dueDatesOf({ frequency: 'monthly', startDate: '2026-01-31', dayOfMonth: 31 }, 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(shortMonthWording(31, '2026-04-30')).toBe('Apr has no 31st: due on its last day, Thu 30 Apr');
    expect(shortMonthWording(31, '2026-03-31')).toBeNull();
    expect(dueDatesOf({ frequency: 'monthly', startDate: '2028-02-10', dayOfMonth: 30 }, 1)).toEqual(['2028-02-29']);
  });

  it('starts a monthly series in the next month when its day has passed, and stops at the count or the end date', () => {
    expect(dueDatesOf({ frequency: 'monthly', startDate: '2026-03-20', dayOfMonth: 5, count: 2 })).toEqual(['2026-04-05', '2026-05-05']);
    expect(dueDatesOf({ frequency: 'biweekly', startDate: '2026-03-09', endDate: '2026-04-06' })).toEqual(['2026-03-09', '2026-03-23', '2026-04-06']);
    expect(dueDatesOf({ frequency: 'once', startDate: '2026-03-09' })).toEqual(['2026-03-09']);
  });

  it('finds the business day on or before a due date', () => {
    expect(paidOn('2026-03-15', ['2026-03-12', '2026-03-13', '2026-03-16'])).toBe('2026-03-13');
    expect(paidOn('2026-03-11', ['2026-03-12'])).toBeNull();
  });

  it('words the ACH cut-off in bank time', () => {
    expect(cutoffNotice('17:00')).toBe('Payments made after 5:00 PM ET go the next business day.');
    expect(cutoffNotice('09:30')).toBe('Payments made after 9:30 AM ET go the next business day.');
  });
});
