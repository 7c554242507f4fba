import { describe, expect, it } from 'vitest';
import {
  arrivesBy,
  cutoffInstant,
  earliestPaymentDate,
  isPastCutoff,
  nextOccurrences,
  occurrencesBetween,
  seriesEndsBy,
  type Frequency,
  type PlannedOccurrence,
  type Recurrence,
} from './occurrences.ts';

/*
 * An independent reckoning of the same rules, written from the Federal Reserve's holiday rules and
 * plain day-by-day walking, sharing no code with the calendar the bank uses (@18f/us-federal-holidays
 * behind platform/business-calendar.ts). Days are counted as whole days since 1970-01-01 (UTC).
 */
const msPerDay = 86_400_000;
const toDay = (date: string): number => Date.parse(`${date}T00:00:00Z`) / msPerDay;
const toDate = (day: number): string => new Date(day * msPerDay).toISOString().slice(0, 10);
/** 0 Sunday .. 6 Saturday. */
const weekdayOf = (day: number): number => (((day + 4) % 7) + 7) % 7;
const daysInMonth = (year: number, month: number): number =>
  [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
const dayOfDate = (year: number, month: number, dayOfMonth: number): number =>
  toDay(`${year}-${String(month).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`);

/** The `n`th (1-based) `weekday` of a month, or the last one when n is 'last'. */
function nthWeekday(year: number, month: number, weekday: number, n: number | 'last'): number {
  if (n === 'last') {
    let day = dayOfDate(year, month, daysInMonth(year, month));
    while (weekdayOf(day) !== weekday) day -= 1;
    return day;
  }
  let day = dayOfDate(year, month, 1);
  while (weekdayOf(day) !== weekday) day += 1;
  return day + 7 * (n - 1);
}

/** The Federal Reserve's holidays as it observes them: a Sunday holiday on the Monday after, a Saturday one not at all. */
function referenceHolidays(year: number): Set<number> {
  const fixed = [
    [1, 1], // New Year's Day
    [6, 19], // Juneteenth
    [7, 4], // Independence Day
    [11, 11], // Veterans Day
    [12, 25], // Christmas Day
  ].flatMap(([month, dayOfMonth]) => {
    const day = dayOfDate(year, month!, dayOfMonth!);
    if (weekdayOf(day) === 0) return [day + 1];
    if (weekdayOf(day) === 6) return [];
    return [day];
  });
  const [monday, thursday] = [1, 4];
  return new Set([
    ...fixed,
    nthWeekday(year, 1, monday, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, monday, 3), // Washington's Birthday
    nthWeekday(year, 5, monday, 'last'), // Memorial Day
    nthWeekday(year, 9, monday, 1), // Labor Day
    nthWeekday(year, 10, monday, 2), // Columbus Day
    nthWeekday(year, 11, thursday, 4), // Thanksgiving Day
  ]);
}

const holidayCache = new Map<number, Set<number>>();
function referenceIsBusinessDay(day: number): boolean {
  const year = Number(toDate(day).slice(0, 4));
  if (!holidayCache.has(year)) holidayCache.set(year, referenceHolidays(year));
  return weekdayOf(day) !== 0 && weekdayOf(day) !== 6 && !holidayCache.get(year)!.has(day);
}
const businessDayOnOrBefore = (day: number): number => (referenceIsBusinessDay(day) ? day : businessDayOnOrBefore(day - 1));
const businessDayOnOrAfter = (day: number): number => (referenceIsBusinessDay(day) ? day : businessDayOnOrAfter(day + 1));

/** Whether the recurrence names `day` as a due date, walking the calendar one day at a time. */
function isDueDate(recurrence: Recurrence, day: number): boolean {
  const start = toDay(recurrence.startDate);
  if (day < start) return false;
  const [year, month, dayOfMonth] = toDate(day).split('-').map(Number) as [number, number, number];
  switch (recurrence.frequency) {
    case 'once':
      return day === start;
    case 'weekly':
      return (day - start) % 7 === 0;
    case 'biweekly':
      return (day - start) % 14 === 0;
    case 'monthly': {
      if (recurrence.dayOfMonth === 'last')
        return referenceIsBusinessDay(day) && businessDayOnOrAfter(day + 1) > dayOfDate(year, month, daysInMonth(year, month));
      const named = recurrence.dayOfMonth ?? Number(recurrence.startDate.slice(8, 10));
      return dayOfMonth === Math.min(named, daysInMonth(year, month));
    }
  }
}

/** Every occurrence up to `until` the slow way: each calendar day from the start date, then the count, the end date and the floor. */
function referenceOccurrences(recurrence: Recurrence, until = '2029-03-31'): PlannedOccurrence[] {
  const floor = businessDayOnOrAfter(toDay(recurrence.floorDate));
  const dropBefore = businessDayOnOrBefore(floor - 1);
  const found: PlannedOccurrence[] = [];
  let index = 0;
  for (let day = toDay(recurrence.startDate); day <= toDay(until); day += 1) {
    if (!isDueDate(recurrence, day)) continue;
    if (recurrence.count !== null && index >= recurrence.count) break;
    if (recurrence.endDate !== null && day > toDay(recurrence.endDate)) break;
    if (day >= dropBefore) found.push({ index, dueDate: toDate(day), date: toDate(Math.max(businessDayOnOrBefore(day), floor)) });
    index += 1;
  }
  return found;
}

const first = '2027-01-01';
const last = '2028-12-31';
/** A recurrence made in good time (its floor well before its start), unless `more` says otherwise. */
const series = (frequency: Frequency, startDate: string, more: Partial<Recurrence> = {}): Recurrence => ({
  startDate,
  frequency,
  dayOfMonth: null,
  endDate: null,
  count: null,
  floorDate: '2026-12-01',
  ...more,
});
const monthStarts = Array.from({ length: 24 }, (_, month) => `${2027 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`);

/** The implementation against the reference over the two years, whole, a month at a time, and as "next" lists. */
function expectAsReference(recurrence: Recurrence): void {
  const expected = referenceOccurrences(recurrence);
  const within = (from: string, to: string) => expected.filter((occurrence) => occurrence.date >= from && occurrence.date <= to);
  const label = JSON.stringify(recurrence);
  expect(occurrencesBetween(recurrence, first, last), label).toEqual(within(first, last));
  for (const monthStart of monthStarts) {
    const monthEnd = toDate(toDay(monthStart) + daysInMonth(Number(monthStart.slice(0, 4)), Number(monthStart.slice(5, 7))) - 1);
    expect(occurrencesBetween(recurrence, monthStart, monthEnd), `${label} in ${monthStart}`).toEqual(within(monthStart, monthEnd));
    expect(nextOccurrences(recurrence, monthStart, 3), `${label} next from ${monthStart}`).toEqual(
      expected.filter((occurrence) => occurrence.date >= monthStart).slice(0, 3),
    );
  }
  for (const occurrence of expected) {
    expect(referenceIsBusinessDay(toDay(occurrence.date)), `${label}: ${occurrence.date} is a business day`).toBe(true);
  }
  const finalDate = expected.at(-1)?.date;
  if (recurrence.count !== null || recurrence.endDate !== null || recurrence.frequency === 'once') {
    if (finalDate !== undefined) {
      expect(seriesEndsBy(recurrence, finalDate), label).toBe(true);
      expect(seriesEndsBy(recurrence, toDate(toDay(finalDate) - 1)), label).toBe(false);
    }
  } else {
    expect(seriesEndsBy(recurrence, last), label).toBe(false);
  }
}

describe('the reference calendar itself (hand-checked against the Federal Reserve schedule)', () => {
  it('has the holidays of 2027 and 2028 as observed', () => {
    const list = (year: number) => [...referenceHolidays(year)].sort((a, b) => a - b).map(toDate);
    // 2027: Juneteenth and Christmas on Saturdays (not observed), Independence Day on a Sunday (Monday 5 July).
    expect(list(2027)).toEqual(['2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-07-05', '2027-09-06', '2027-10-11', '2027-11-11', '2027-11-25']);
    // 2028: New Year's Day and Veterans Day on Saturdays (not observed).
    expect(list(2028)).toEqual(['2028-01-17', '2028-02-21', '2028-05-29', '2028-06-19', '2028-07-04', '2028-09-04', '2028-10-09', '2028-11-23', '2028-12-25']);
  });
});

describe('occurrence dates against an independent computation, 2027-01-01 to 2028-12-31', () => {
  it('monthly on every day of the month, 1 to 31, and on the last business day', () => {
    for (const dayOfMonth of [...Array.from({ length: 31 }, (_, day) => day + 1), 'last' as const]) {
      expectAsReference(series('monthly', '2027-01-01', { dayOfMonth }));
    }
  });

  it("monthly on the start date's own day, for every start day of January 2027 (Jan 29-31 run into February's end)", () => {
    for (let day = 1; day <= 31; day += 1) expectAsReference(series('monthly', `2027-01-${String(day).padStart(2, '0')}`));
  });

  it('monthly from a start date after the named day: the first payment is the next month', () => {
    expectAsReference(series('monthly', '2027-01-20', { dayOfMonth: 5 }));
    expectAsReference(series('monthly', '2027-01-30', { dayOfMonth: 'last' }));
    expectAsReference(series('monthly', '2028-02-29', { dayOfMonth: 30 }));
  });

  it('weekly and every two weeks from each weekday (both weeks of the fortnight)', () => {
    for (let offset = 0; offset < 14; offset += 1) {
      const start = toDate(toDay('2027-01-01') + offset);
      expectAsReference(series('weekly', start));
      expectAsReference(series('biweekly', start));
    }
  });

  it('series that end: by a date and by a number of payments', () => {
    expectAsReference(series('weekly', '2027-03-01', { endDate: '2027-07-05' }));
    expectAsReference(series('biweekly', '2027-11-11', { endDate: '2028-02-24' }));
    expectAsReference(series('monthly', '2027-01-31', { endDate: '2028-02-29' }));
    expectAsReference(series('monthly', '2027-01-15', { dayOfMonth: 'last', endDate: '2027-12-30' }));
    expectAsReference(series('monthly', '2027-05-31', { count: 13 }));
    expectAsReference(series('weekly', '2027-06-18', { count: 1 }));
    expectAsReference(series('biweekly', '2027-12-24', { count: 30 }));
    expectAsReference(series('once', '2027-07-04'));
    expectAsReference(series('once', '2028-02-29'));
  });

  it('the floor: nothing dated before it, and nothing due before its previous business day', () => {
    // Made on Friday 2027-05-28 after the cut-off: the floor is Tuesday 1 June (Monday 31 May is Memorial Day).
    expectAsReference(series('monthly', '2027-05-29', { dayOfMonth: 31, floorDate: '2027-06-01' }));
    expectAsReference(series('weekly', '2027-05-28', { floorDate: '2027-06-01' }));
    expectAsReference(series('once', '2027-05-30', { floorDate: '2027-06-01' }));
    // Edited with the floor months after the start: the occurrences before it are not planned again.
    expectAsReference(series('weekly', '2027-01-04', { floorDate: '2027-07-06' }));
    expectAsReference(series('monthly', '2027-01-31', { count: 12, floorDate: '2027-07-06' }));
    expectAsReference(series('biweekly', '2027-12-06', { floorDate: '2027-12-27' }));
    // Made on a Saturday: the floor is the Monday after.
    expectAsReference(series('weekly', '2027-01-02', { floorDate: '2027-01-02' }));
    expectAsReference(series('monthly', '2028-01-01', { dayOfMonth: 'last', floorDate: '2028-01-01' }));
  });
});

describe('occurrence dates, checked by hand', () => {
  const dates = (occurrences: PlannedOccurrence[]) => occurrences.map(({ dueDate, date }) => `${dueDate} -> ${date}`);

  it('a 31st: the month end when shorter, the Friday before a weekend, before Memorial Day, a leap day', () => {
    expect(dates(occurrencesBetween(series('monthly', '2027-01-31'), '2027-01-01', '2028-02-29'))).toEqual([
      '2027-01-31 -> 2027-01-29', // a Sunday
      '2027-02-28 -> 2027-02-26', // February 2027 has 28 days; the 28th is a Sunday
      '2027-03-31 -> 2027-03-31',
      '2027-04-30 -> 2027-04-30', // a 30-day month: the 30th
      '2027-05-31 -> 2027-05-28', // Memorial Day (the last Monday of May)
      '2027-06-30 -> 2027-06-30',
      '2027-07-31 -> 2027-07-30', // a Saturday
      '2027-08-31 -> 2027-08-31',
      '2027-09-30 -> 2027-09-30',
      '2027-10-31 -> 2027-10-29', // a Sunday
      '2027-11-30 -> 2027-11-30',
      '2027-12-31 -> 2027-12-31', // New Year's Day 2028 is a Saturday: not observed, 31 December is a business day
      '2028-01-31 -> 2028-01-31',
      '2028-02-29 -> 2028-02-29', // the leap day, a Tuesday
    ]);
  });

  it("the month's last business day", () => {
    expect(occurrencesBetween(series('monthly', '2027-01-01', { dayOfMonth: 'last' }), '2027-01-01', '2027-12-31').map(({ date }) => date)).toEqual([
      '2027-01-29',
      '2027-02-26',
      '2027-03-31',
      '2027-04-30',
      '2027-05-28',
      '2027-06-30',
      '2027-07-30',
      '2027-08-31',
      '2027-09-30',
      '2027-10-29',
      '2027-11-30',
      '2027-12-31',
    ]);
  });

  it('Mondays: Martin Luther King Jr. Day and Presidents Day go on the Friday before', () => {
    expect(dates(occurrencesBetween(series('weekly', '2027-01-04'), '2027-01-01', '2027-02-15'))).toEqual([
      '2027-01-04 -> 2027-01-04',
      '2027-01-11 -> 2027-01-11',
      '2027-01-18 -> 2027-01-15',
      '2027-01-25 -> 2027-01-25',
      '2027-02-01 -> 2027-02-01',
      '2027-02-08 -> 2027-02-08',
      '2027-02-15 -> 2027-02-12',
    ]);
  });

  it('holidays on weekends: a Saturday one is not observed, a Sunday one closes the Monday after', () => {
    const once = (date: string) => occurrencesBetween(series('once', date), first, last).map(({ date: paid }) => paid);
    expect(once('2027-06-18')).toEqual(['2027-06-18']); // Juneteenth 2027 is a Saturday: Friday the 18th stays a business day
    expect(once('2027-06-19')).toEqual(['2027-06-18']);
    expect(once('2027-07-04')).toEqual(['2027-07-02']); // a Sunday
    expect(once('2027-07-05')).toEqual(['2027-07-02']); // Independence Day observed on Monday 5 July
    expect(once('2027-12-25')).toEqual(['2027-12-24']); // Christmas 2027 is a Saturday: Friday the 24th is open
    expect(once('2027-12-27')).toEqual(['2027-12-27']);
    expect(once('2028-01-01')).toEqual(['2027-12-31']); // New Year's Day 2028, a Saturday
    expect(once('2028-11-11')).toEqual(['2028-11-10']); // Veterans Day 2028, a Saturday
  });

  it('every two weeks from Veterans Day, ending by count or by date, skipping Thanksgiving', () => {
    const start = series('biweekly', '2027-11-11', { count: 2 });
    expect(dates(occurrencesBetween(start, first, last))).toEqual(['2027-11-11 -> 2027-11-10', '2027-11-25 -> 2027-11-24']);
    expect(dates(occurrencesBetween({ ...start, count: null, endDate: '2027-12-09' }, first, last))).toEqual([
      '2027-11-11 -> 2027-11-10',
      '2027-11-25 -> 2027-11-24',
      '2027-12-09 -> 2027-12-09',
    ]);
    expect(seriesEndsBy(start, '2027-11-24')).toBe(true);
    expect(seriesEndsBy(start, '2027-11-23')).toBe(false);
    expect(seriesEndsBy({ ...start, count: null }, '2099-12-31')).toBe(false);
  });

  it('the floor: made after the cut-off on Friday 2027-05-28, nothing goes before Tuesday 1 June', () => {
    const floorDate = '2027-06-01';
    expect(occurrencesBetween(series('once', '2027-05-30', { floorDate }), first, last)).toEqual([{ index: 0, dueDate: '2027-05-30', date: '2027-06-01' }]);
    expect(nextOccurrences(series('monthly', '2027-05-28', { dayOfMonth: 'last', floorDate }), '2027-05-28', 2)).toEqual([
      { index: 0, dueDate: '2027-05-28', date: '2027-06-01' },
      { index: 1, dueDate: '2027-06-30', date: '2027-06-30' },
    ]);
    // Edited in July: the earlier occurrences (already run) are not planned again, and still count.
    expect(occurrencesBetween(series('monthly', '2027-01-31', { count: 8, floorDate: '2027-07-06' }), first, last)).toEqual([
      { index: 6, dueDate: '2027-07-31', date: '2027-07-30' },
      { index: 7, dueDate: '2027-08-31', date: '2027-08-31' },
    ]);
  });

  it('jumps ahead rather than walking from the start: an "until cancelled" series centuries on', () => {
    expect(nextOccurrences(series('weekly', '2027-01-04'), '2500-01-01', 2)).toEqual([
      { index: 24_680, dueDate: '2500-01-04', date: '2500-01-04' },
      { index: 24_681, dueDate: '2500-01-11', date: '2500-01-11' },
    ]);
    expect(occurrencesBetween(series('monthly', '2027-01-31'), '2500-02-01', '2500-02-28')).toEqual([
      { index: 5_677, dueDate: '2500-02-28', date: '2500-02-26' },
    ]);
    expect(seriesEndsBy(series('biweekly', '2027-01-01'), '2500-01-01')).toBe(false);
  });

  it('never more than the series has, and nothing for an empty range', () => {
    expect(nextOccurrences(series('monthly', '2027-01-15', { count: 3 }), first, 10)).toHaveLength(3);
    expect(nextOccurrences(series('once', '2027-03-03'), '2027-03-04', 5)).toEqual([]);
    expect(occurrencesBetween(series('weekly', '2027-01-04'), '2027-01-06', '2027-01-10')).toEqual([]);
    expect(nextOccurrences(series('weekly', '2027-01-04'), first, 0)).toEqual([]);
  });
});

describe('the ACH cut-off, the earliest payment date and "arrives by"', () => {
  const newYork = 'America/New_York';

  it('is the cut-off time on the wall clock of that day, across the changes of clocks', () => {
    expect(cutoffInstant('2027-03-12', '17:00', newYork).toISOString()).toBe('2027-03-12T22:00:00.000Z'); // EST, UTC-5
    expect(cutoffInstant('2027-03-14', '17:00', newYork).toISOString()).toBe('2027-03-14T21:00:00.000Z'); // the spring-forward day: EDT
    expect(cutoffInstant('2027-03-15', '17:00', newYork).toISOString()).toBe('2027-03-15T21:00:00.000Z');
    expect(cutoffInstant('2027-11-05', '17:00', newYork).toISOString()).toBe('2027-11-05T21:00:00.000Z');
    expect(cutoffInstant('2027-11-07', '17:00', newYork).toISOString()).toBe('2027-11-07T22:00:00.000Z'); // the fall-back day: EST
    expect(cutoffInstant('2027-11-08', '14:30', newYork).toISOString()).toBe('2027-11-08T19:30:00.000Z');
    // A time the change skips is read with the offset before it; a repeated one is its first.
    expect(cutoffInstant('2027-03-14', '02:30', newYork).toISOString()).toBe('2027-03-14T07:30:00.000Z');
    expect(cutoffInstant('2027-11-07', '01:30', newYork).toISOString()).toBe('2027-11-07T05:30:00.000Z');
    expect(cutoffInstant('2027-03-26', '17:00', 'Europe/London').toISOString()).toBe('2027-03-26T17:00:00.000Z');
    expect(cutoffInstant('2027-03-29', '17:00', 'Europe/London').toISOString()).toBe('2027-03-29T16:00:00.000Z');
    expect(cutoffInstant('2027-07-01', '00:00', 'UTC').toISOString()).toBe('2027-07-01T00:00:00.000Z');
    expect(() => cutoffInstant('2027-07-01', '5pm', newYork)).toThrow(RangeError);
  });

  it('dates a payment today before the cut-off of a business day, and the next business day after it or on a closed day', () => {
    const earliest = (instant: string, today: string) => earliestPaymentDate(new Date(instant), today, '17:00', newYork);
    expect(earliest('2027-03-15T20:59:59Z', '2027-03-15')).toBe('2027-03-15'); // Monday 16:59:59 EDT
    expect(earliest('2027-03-15T21:00:00Z', '2027-03-15')).toBe('2027-03-16'); // 17:00 sharp: past it
    expect(earliest('2027-03-16T03:30:00Z', '2027-03-15')).toBe('2027-03-16'); // 23:30 Monday in New York, already Tuesday in UTC
    expect(earliest('2027-03-12T21:30:00Z', '2027-03-12')).toBe('2027-03-12'); // Friday 16:30 EST
    expect(earliest('2027-03-12T22:00:00Z', '2027-03-12')).toBe('2027-03-15'); // Friday after the cut-off: Monday
    expect(earliest('2027-05-28T21:30:00Z', '2027-05-28')).toBe('2027-06-01'); // then Memorial Day
    expect(earliest('2027-07-03T14:00:00Z', '2027-07-03')).toBe('2027-07-06'); // a Saturday before the observed Independence Day
    expect(earliest('2027-07-05T13:00:00Z', '2027-07-05')).toBe('2027-07-06'); // the holiday itself, in the morning
    // A sandbox run ahead of the clock: the business date's cut-off is still to come.
    expect(earliest('2027-03-15T23:00:00Z', '2027-03-26')).toBe('2027-03-26');
    expect(earliest('2027-03-15T23:00:00Z', '2027-03-27')).toBe('2027-03-29');
  });

  it('has passed only on a business day', () => {
    expect(isPastCutoff(new Date('2027-03-15T21:00:00Z'), '2027-03-15', '17:00', newYork)).toBe(true);
    expect(isPastCutoff(new Date('2027-03-15T20:59:00Z'), '2027-03-15', '17:00', newYork)).toBe(false);
    expect(isPastCutoff(new Date('2027-03-13T23:00:00Z'), '2027-03-13', '17:00', newYork)).toBe(false); // a Saturday evening
    expect(isPastCutoff(new Date('2027-07-05T23:00:00Z'), '2027-07-05', '17:00', newYork)).toBe(false); // a holiday evening
  });

  it('arrives the same day between accounts of this bank, the next business day by ACH', () => {
    expect(arrivesBy('own', '2027-12-24')).toBe('2027-12-24');
    expect(arrivesBy('internal', '2027-07-02')).toBe('2027-07-02');
    expect(arrivesBy('external', '2027-12-24')).toBe('2027-12-27'); // Christmas on a Saturday is not observed: Monday
    expect(arrivesBy('bill', '2027-07-02')).toBe('2027-07-06'); // the weekend, then Independence Day observed
    expect(arrivesBy('bill', '2027-11-24')).toBe('2027-11-26'); // Thanksgiving
    expect(arrivesBy('external', '2028-02-28')).toBe('2028-02-29');
  });
});
