import { describe, expect, it } from 'vitest';
import { addBusinessDays, addDays, calendarDayIn, federalReserveHolidays, isBusinessDay, nextBusinessDay } from './business-calendar.ts';

/**
 * Against the Federal Reserve's own published holiday schedules (federalreserve.gov, "Holidays
 * Observed by the Federal Reserve System"), which also list the Saturday holidays on which its banks
 * are open the Friday before.
 */
describe('the business calendar', () => {
  it('lists the Federal Reserve holidays of 2023 as it published them (New Year on the Monday after a Sunday)', () => {
    expect([...federalReserveHolidays(2023)].sort()).toEqual([
      '2023-01-02',
      '2023-01-16',
      '2023-02-20',
      '2023-05-29',
      '2023-06-19',
      '2023-07-04',
      '2023-09-04',
      '2023-10-09',
      '2023-11-11',
      '2023-11-23',
      '2023-12-25',
    ]);
  });

  it.each([
    ['2027-07-05', false, 'Independence Day falls on a Sunday: closed the Monday after'],
    ['2027-06-18', true, 'Juneteenth falls on a Saturday: open the Friday before (the federal government is not)'],
    ['2027-12-24', true, 'Christmas falls on a Saturday: open the Friday before'],
    ['2026-11-26', false, 'Thanksgiving, the fourth Thursday of November'],
    ['2026-11-27', true, 'the Friday after Thanksgiving is a business day'],
    ['2024-06-19', false, 'Juneteenth on a Wednesday'],
    ['2028-02-29', true, 'a leap day on a Tuesday'],
    ['2026-11-28', false, 'a Saturday'],
    ['2026-11-29', false, 'a Sunday'],
  ])('%s is a business day: %s (%s)', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it('finds the next business day across weekends and holidays', () => {
    expect(nextBusinessDay('2027-07-02')).toBe('2027-07-06');
    expect(nextBusinessDay('2026-11-25')).toBe('2026-11-27');
    expect(nextBusinessDay('2026-12-31')).toBe('2027-01-04');
    expect(nextBusinessDay('2027-12-23')).toBe('2027-12-24');
  });

  it('counts the n-th business day after a day, never the day itself, across weekends and holidays', () => {
    expect(addBusinessDays('2026-11-24', 1)).toBe('2026-11-25');
    expect(addBusinessDays('2026-11-24', 2)).toBe('2026-11-27');
    expect(addBusinessDays('2026-11-28', 1)).toBe('2026-11-30');
    expect(addBusinessDays('2027-07-01', 5)).toBe('2027-07-09');
    expect(addBusinessDays('2027-12-23', 2)).toBe('2027-12-27');
    expect(() => addBusinessDays('2026-11-24', 0)).toThrow(RangeError);
    expect(() => addBusinessDays('2026-11-24', 1.5)).toThrow(RangeError);
    expect(() => addBusinessDays('2026-02-30', 1)).toThrow(RangeError);
  });

  it('counts calendar days across months and leap years, and refuses what is not a date', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-02-28', 1)).toBe('2027-03-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(() => isBusinessDay('2027-02-29')).toThrow(RangeError);
    expect(() => nextBusinessDay('29/11/2026')).toThrow(RangeError);
  });

  it("reads today in the bank's time zone, not UTC", () => {
    // 03:00 UTC on 25 November is still the evening of 24 November in New York.
    expect(calendarDayIn('America/New_York', new Date('2026-11-25T03:00:00Z'))).toBe('2026-11-24');
    expect(calendarDayIn('UTC', new Date('2026-11-25T03:00:00Z'))).toBe('2026-11-25');
  });
});
