import { describe, expect, it } from 'vitest';
import { addBusinessDays, disputeDeadlines, reportWindowEnd, reversalDate, type DeadlineFacts } from './deadlines.ts';

/*
 * An independent model of Regulation E's clocks, written from the rules and not from the code under
 * test: its own day numbers (days since 1970-01-01, from the civil-calendar algorithm), its own
 * Federal Reserve holidays (the statutory rules: a fixed date or an n-th weekday, observed on the
 * Monday when it falls on a Sunday and not at all when it falls on a Saturday) and its own counting.
 * Neither @18f/us-federal-holidays nor platform/business-calendar.ts is used here.
 */

const sunday = 0;
const monday = 1;
const thursday = 4;
const saturday = 6;

/** Days since 1970-01-01 of a civil date (proleptic Gregorian). */
function dayNumberOf(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilOf(dayNumber: number): { year: number; month: number; day: number } {
  const shifted = dayNumber + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function parse(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return dayNumberOf(year, month, day);
}

function format(dayNumber: number): string {
  const { year, month, day } = civilOf(dayNumber);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 1970-01-01 was a Thursday. */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + thursday) % 7) + 7) % 7;
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

/** The n-th `weekday` of a month (n = -1: the last one). */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n === -1) {
    const last = dayNumberOf(year, month, daysInMonth(year, month));
    return last - ((weekdayOf(last) - weekday + 7) % 7);
  }
  const first = dayNumberOf(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + (n - 1) * 7;
}

const modelHolidays = new Map<number, Set<number>>();

/** The Federal Reserve's holidays of `year` as it observes them, as day numbers. */
function federalReserveHolidaysModel(year: number): Set<number> {
  const cached = modelHolidays.get(year);
  if (cached) return cached;
  const fixed = [
    dayNumberOf(year, 1, 1), // New Year's Day
    dayNumberOf(year, 6, 19), // Juneteenth National Independence Day
    dayNumberOf(year, 7, 4), // Independence Day
    dayNumberOf(year, 11, 11), // Veterans Day
    dayNumberOf(year, 12, 25), // Christmas Day
  ];
  const floating = [
    nthWeekday(year, 1, monday, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, monday, 3), // Washington's Birthday
    nthWeekday(year, 5, monday, -1), // Memorial Day
    nthWeekday(year, 9, monday, 1), // Labor Day
    nthWeekday(year, 10, monday, 2), // Columbus Day
    nthWeekday(year, 11, thursday, 4), // Thanksgiving Day
  ];
  const observed = new Set<number>(floating);
  for (const holiday of fixed) {
    if (weekdayOf(holiday) === sunday) observed.add(holiday + 1);
    else if (weekdayOf(holiday) !== saturday) observed.add(holiday);
  }
  modelHolidays.set(year, observed);
  return observed;
}

function isBusinessDayModel(dayNumber: number): boolean {
  const weekday = weekdayOf(dayNumber);
  return weekday !== sunday && weekday !== saturday && !federalReserveHolidaysModel(civilOf(dayNumber).year).has(dayNumber);
}

function businessDaysAfterModel(dayNumber: number, count: number): number {
  let day = dayNumber;
  for (let counted = 0; counted < count;) {
    day += 1;
    if (isBusinessDayModel(day)) counted += 1;
  }
  return day;
}

function deadlinesModel(facts: DeadlineFacts): { newAccount: boolean; provisionalCreditBy: string; resolveBy: string } {
  const received = parse(facts.receivedOn);
  const newAccount = received - parse(facts.accountOpenedOn) < 30;
  let resolveBy = received + (newAccount || facts.pointOfSale || facts.foreign ? 90 : 45);
  while (!isBusinessDayModel(resolveBy)) resolveBy -= 1;
  return { newAccount, provisionalCreditBy: format(businessDaysAfterModel(received, newAccount ? 20 : 10)), resolveBy: format(resolveBy) };
}

function reportWindowEndModel(transactionDate: string): string {
  const { year, month } = civilOf(parse(transactionDate));
  return format(dayNumberOf(year, month, daysInMonth(year, month)) + 60);
}

const everyDayOf2027And2028 = Array.from({ length: parse('2029-01-01') - parse('2027-01-01') }, (_, index) => parse('2027-01-01') + index);

const old = '2020-01-15';
const base = { accountOpenedOn: old, pointOfSale: false, foreign: false } satisfies Omit<DeadlineFacts, 'receivedOn'>;

describe('the independent model of the calendar', () => {
  // The model checks the code below only if it is right itself: its holidays against the Federal
  // Reserve's published schedules for these years (Saturday holidays are not observed).
  it('holds the Federal Reserve holidays of 2027 and 2028 as published', () => {
    const listed = (year: number) => [...federalReserveHolidaysModel(year)].sort((first, second) => first - second).map(format);
    expect(listed(2027)).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-05-31',
      '2027-07-05',
      '2027-09-06',
      '2027-10-11',
      '2027-11-11',
      '2027-11-25',
    ]);
    expect(listed(2028)).toEqual([
      '2028-01-17',
      '2028-02-21',
      '2028-05-29',
      '2028-06-19',
      '2028-07-04',
      '2028-09-04',
      '2028-10-09',
      '2028-11-23',
      '2028-12-25',
    ]);
    expect(format(parse('2028-02-29') + 1)).toBe('2028-03-01');
    expect(weekdayOf(parse('2027-01-01'))).toBe(5);
  });
});

describe('dispute deadlines against the independent model', () => {
  it('agree for every day of 2027 and 2028 received, with and without a new account, point of sale and foreign', () => {
    let checked = 0;
    for (const [index, received] of everyDayOf2027And2028.entries()) {
      const receivedOn = format(received);
      // Accounts of every age around the 30-day line: 0 to 29 days old (new), 30 to 59 (not new), and years old.
      for (const accountOpenedOn of [format(received - (index % 30)), format(received - 30 - (index % 30)), old]) {
        for (const pointOfSale of [false, true]) {
          for (const foreign of [false, true]) {
            const facts = { receivedOn, accountOpenedOn, pointOfSale, foreign };
            expect(disputeDeadlines(facts), JSON.stringify(facts)).toEqual(deadlinesModel(facts));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(731 * 3 * 4);
  });

  it('agree on the end of the 60-day report window and the reversal date for every day of 2027 and 2028', () => {
    for (const day of everyDayOf2027And2028) {
      expect(reportWindowEnd(format(day)), format(day)).toBe(reportWindowEndModel(format(day)));
      expect(reversalDate(format(day)), format(day)).toBe(format(businessDaysAfterModel(day, 5)));
    }
  });

  it('agree on the 1st, 2nd, 5th, 10th, 20th and 25th business day after every day of 2027 and 2028', () => {
    for (const day of everyDayOf2027And2028) {
      for (const count of [1, 2, 5, 10, 20, 25])
        expect(addBusinessDays(format(day), count), `${format(day)} + ${count}`).toBe(format(businessDaysAfterModel(day, count)));
    }
  });
});

describe('dispute deadlines, checked by hand', () => {
  it('skips Thanksgiving: received Monday 22 November 2027, provisional credit by 7 December, resolved by 6 January', () => {
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-22' })).toEqual({ newAccount: false, provisionalCreditBy: '2027-12-07', resolveBy: '2028-01-06' });
  });

  it('counts the Friday before a Saturday Christmas and New Year as business days (Christmas week 2027)', () => {
    // 24 Dec (1), 27-31 Dec (2-6), 3-6 Jan (7-10); 23 Dec + 45 days is Sunday 6 February, so Friday the 4th.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-12-23' })).toEqual({ newAccount: false, provisionalCreditBy: '2028-01-06', resolveBy: '2028-02-04' });
  });

  it('skips Christmas and New Year on Mondays (Christmas week 2028)', () => {
    // 26-29 Dec (1-4), 2-5 Jan (5-8), 8-9 Jan (9-10); 22 Dec + 45 days is Monday 5 February 2029.
    expect(disputeDeadlines({ ...base, receivedOn: '2028-12-22' })).toEqual({ newAccount: false, provisionalCreditBy: '2029-01-09', resolveBy: '2029-02-05' });
  });

  it('skips a Sunday holiday observed on the Monday: Independence Day 2027 (Monday 5 July closed)', () => {
    expect(addBusinessDays('2027-07-02', 1)).toBe('2027-07-06');
    expect(disputeDeadlines({ ...base, receivedOn: '2027-07-02' }).provisionalCreditBy).toBe('2027-07-19');
    // 21 May + 45 days is the observed holiday, Monday 5 July: resolve by the Friday before.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-05-21' })).toEqual({ newAccount: false, provisionalCreditBy: '2027-06-07', resolveBy: '2027-07-02' });
  });

  it('does not observe Juneteenth on a Saturday (2027: Friday 18 June is a business day), but does on a Monday (2028)', () => {
    expect(addBusinessDays('2027-06-17', 1)).toBe('2027-06-18');
    expect(disputeDeadlines({ ...base, receivedOn: '2027-06-17' }).provisionalCreditBy).toBe('2027-07-01');
    expect(addBusinessDays('2028-06-16', 1)).toBe('2028-06-20');
    expect(disputeDeadlines({ ...base, receivedOn: '2028-06-16' }).provisionalCreditBy).toBe('2028-07-03');
  });

  it('treats an account opened 29 days before the notice as new, and one opened 30 days before as not', () => {
    // New: the 20th business day (after Thanksgiving) and 90 days, 20 February 2028 a Sunday, so Friday the 18th.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-22', accountOpenedOn: '2027-10-24' })).toEqual({
      newAccount: true,
      provisionalCreditBy: '2027-12-21',
      resolveBy: '2028-02-18',
    });
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-22', accountOpenedOn: '2027-10-23' })).toEqual({
      newAccount: false,
      provisionalCreditBy: '2027-12-07',
      resolveBy: '2028-01-06',
    });
    // Across a leap day: 15 February to 15 March 2028 is 29 days.
    expect(disputeDeadlines({ ...base, receivedOn: '2028-03-15', accountOpenedOn: '2028-02-15' }).newAccount).toBe(true);
    expect(disputeDeadlines({ ...base, receivedOn: '2028-03-15', accountOpenedOn: '2028-02-14' }).newAccount).toBe(false);
    expect(disputeDeadlines({ ...base, receivedOn: '2028-03-15', accountOpenedOn: '2028-03-15' }).newAccount).toBe(true);
  });

  it('gives a point-of-sale or foreign transaction 90 days to resolve but still 10 business days for provisional credit', () => {
    const extended = { newAccount: false, provisionalCreditBy: '2027-12-07', resolveBy: '2028-02-18' };
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-22', pointOfSale: true })).toEqual(extended);
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-22', foreign: true })).toEqual(extended);
  });

  it('moves a resolve-by date on a weekend or a holiday to the business day before', () => {
    // 15 January 2028 + 45 = Tuesday 29 February: a business day, kept.
    expect(disputeDeadlines({ ...base, receivedOn: '2028-01-15' }).resolveBy).toBe('2028-02-29');
    // 1 April 2027 + 45 = Sunday 16 May: Friday the 14th.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-04-01' }).resolveBy).toBe('2027-05-14');
    // 28 August 2028 + 90 = Sunday 26 November, then back past Saturday to Friday 24 November (the day after Thanksgiving is open).
    expect(disputeDeadlines({ ...base, receivedOn: '2028-08-28', foreign: true }).resolveBy).toBe('2028-11-24');
  });

  it('counts from the next business day when the notice arrives on a weekend or a holiday', () => {
    // Received Thanksgiving 2027: day 1 is Friday 26 November.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-11-25' }).provisionalCreditBy).toBe('2027-12-09');
    // Received Saturday 16 January 2027 before Martin Luther King Day: day 1 is Tuesday the 19th.
    expect(disputeDeadlines({ ...base, receivedOn: '2027-01-16' }).provisionalCreditBy).toBe('2027-02-01');
  });

  it('refuses what is not a date', () => {
    expect(() => disputeDeadlines({ ...base, receivedOn: '2027-02-29' })).toThrow(RangeError);
    expect(() => disputeDeadlines({ ...base, receivedOn: '2027-03-01', accountOpenedOn: '2027-13-01' })).toThrow(RangeError);
    expect(() => reportWindowEnd('31/01/2027')).toThrow(RangeError);
    expect(() => reversalDate('2027-04-31')).toThrow(RangeError);
    expect(() => addBusinessDays('2027-04-01', 0)).toThrow(RangeError);
  });
});

describe('the 60-day report window', () => {
  it.each([
    ['2027-01-31', '2027-04-01', 'January statement closes 31 January; 60 days after is 1 April'],
    ['2027-01-01', '2027-04-01', 'any January day has the same window'],
    ['2028-01-31', '2028-03-31', 'a leap February is one day longer'],
    ['2028-02-29', '2028-04-29', 'the leap day: February statement closes the 29th'],
    ['2027-02-28', '2027-04-29', 'February 2027 closes the 28th'],
    ['2027-12-31', '2028-02-29', 'December 2027 runs into a leap February'],
    ['2028-12-31', '2029-03-01', 'December 2028 runs into a 28-day February'],
  ])('a transaction of %s may be reported until %s (%s)', (transactionDate, windowEnd) => {
    expect(reportWindowEnd(transactionDate)).toBe(windowEnd);
  });

  it('stays on its calendar day even when that is a weekend (a report is in time on or before it)', () => {
    // March 2027 closes 31 March; 60 days later is Sunday 30 May 2027.
    expect(reportWindowEnd('2027-03-10')).toBe('2027-05-30');
  });
});

describe('the reversal after a denial', () => {
  it('waits 5 business days, across holidays', () => {
    // Decided the day before Thanksgiving 2027: 26, 29, 30 November, 1, 2 December.
    expect(reversalDate('2027-11-24')).toBe('2027-12-02');
    // Decided Friday 22 December 2028: Christmas and New Year (both Mondays) are skipped.
    expect(reversalDate('2028-12-22')).toBe('2029-01-02');
    // Decided on a Saturday before Martin Luther King Day 2027: 19-22 January, then Monday the 25th.
    expect(reversalDate('2027-01-16')).toBe('2027-01-25');
  });
});
