import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Clock } from '../../db/clock.ts';
import { addDays, calendarDayIn, isBusinessDay, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';

describeEachDatabase('the business calendar: GET /calendar/business-days and /calendar/today (public)', (database) => {
  let app: FastifyInstance;
  let timeZone: string;
  testAppSuite(database, (built) => {
    app = built.app;
    timeZone = built.config.bankTimeZone;
  });

  async function businessDays(from: string, to: string) {
    const response = await app.inject({ method: 'GET', url: `/api/v1/calendar/business-days?from=${from}&to=${to}` });
    return response;
  }

  async function days(from: string, to: string): Promise<string[]> {
    const response = await businessDays(from, to);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ days: string[] }>().days;
  }

  it('leaves out weekends and Thanksgiving (2026-11-26)', async () => {
    expect(await days('2026-11-23', '2026-11-30')).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27', '2026-11-30']);
  });

  it('leaves out an observed holiday: Independence Day 2027 falls on a Sunday, so Monday 2027-07-05 is closed', async () => {
    expect(await days('2027-07-01', '2027-07-07')).toEqual(['2027-07-01', '2027-07-02', '2027-07-06', '2027-07-07']);
  });

  it('does not move a Saturday holiday: Christmas 2027 is a Saturday and Friday 2027-12-24 is a business day for the Fed', async () => {
    expect(await days('2027-12-23', '2027-12-28')).toEqual(['2027-12-23', '2027-12-24', '2027-12-27', '2027-12-28']);
  });

  it('answers a whole leap year (366 days) and a single day', async () => {
    const year = await days('2028-01-01', '2028-12-31');
    // 2028 starts on a Saturday and ends on a Sunday: 106 weekend days. New Year's Day and Veterans Day
    // fall on Saturdays and are not moved; the nine other Fed holidays fall on weekdays.
    expect(year).toHaveLength(366 - 106 - 9);
    for (const holiday of ['2028-01-17', '2028-02-21', '2028-05-29', '2028-06-19', '2028-07-04', '2028-09-04', '2028-10-09', '2028-11-23', '2028-12-25'])
      expect(year).not.toContain(holiday);
    expect(year).toContain('2028-11-10');
    expect(await days('2026-11-27', '2026-11-27')).toEqual(['2026-11-27']);
    expect(await days('2026-11-28', '2026-11-29')).toEqual([]);
  });

  it.each([
    ['a reversed range', '2026-12-10', '2026-12-01', 'to', 'to is on or after from'],
    ['more than 366 days', '2026-01-01', '2027-01-02', 'to', 'to is at most 365 days after from'],
    ['a date that does not exist', '2026-02-30', '2026-03-02', 'from', 'from is a date (YYYY-MM-DD)'],
    ['not a date', 'yesterday', '2026-03-02', 'from', 'from is a date (YYYY-MM-DD)'],
  ])('refuses %s with 400 and a field message', async (_name, from, to, field, message) => {
    const response = await businessDays(from, to);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { [field]: message } });
  });

  it('refuses a missing range', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/calendar/business-days' });
    expect(response.statusCode).toBe(400);
  });

  it("today: the bank's date is today in its time zone, until end of day runs ahead of the clock (the sandbox's time machine)", async () => {
    const today = calendarDayIn(timeZone, new Date());
    const now = (await app.inject({ method: 'GET', url: '/api/v1/calendar/today' })).json();
    expect(now).toMatchObject({ businessDate: today, clockDate: today, aheadOfClock: false, achCutoff: '17:00' });
    // Today before its cut-off, or the next business day (the clock's exact time is the next suite's business).
    expect(now.earliestPaymentDate).toBe(isBusinessDay(today) && !now.pastCutoff ? today : nextBusinessDay(today));
    // A day already run that is not after today changes nothing.
    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ($1, $1, 'done', now())", [addDays(today, -3)]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/calendar/today' })).json()).toMatchObject({ businessDate: today, aheadOfClock: false });
    // A day still running does not count either.
    await database().query("INSERT INTO business_days (day, covers_from, status) VALUES ($1, $1, 'running')", [addDays(today, 40)]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/calendar/today' })).json()).toMatchObject({ businessDate: today, aheadOfClock: false });
    const ahead = addDays(today, 31);
    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ($1, $2, 'done', now())", [ahead, addDays(today, -2)]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/calendar/today' })).json()).toEqual({
      businessDate: ahead,
      clockDate: today,
      aheadOfClock: true,
      achCutoff: '17:00',
      pastCutoff: false,
      earliestPaymentDate: isBusinessDay(ahead) ? ahead : nextBusinessDay(ahead),
    });
  });
});

describeEachDatabase('GET /calendar/today: the ACH cut-off (ACH_CUTOFF=14:30, New York) and the earliest payment date', (database) => {
  let app: FastifyInstance;
  let instant = new Date('2027-03-15T12:00:00Z');
  const clock: Clock = { now: () => instant };
  testAppSuite(
    database,
    (built) => {
      app = built.app;
    },
    { environment: { ACH_CUTOFF: '14:30', BANK_TIME_ZONE: 'America/New_York' }, dependencies: { clock } },
  );

  async function todayAt(at: string) {
    instant = new Date(at);
    const response = await app.inject({ method: 'GET', url: '/api/v1/calendar/today' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      businessDate: string;
      clockDate: string;
      aheadOfClock: boolean;
      achCutoff: string;
      pastCutoff: boolean;
      earliestPaymentDate: string;
    }>();
  }

  it('on a business day: today until the cut-off, the next business day from it on', async () => {
    // Monday 2027-03-15, the day after clocks went forward (EDT, UTC-4): the cut-off is 18:30 UTC.
    expect(await todayAt('2027-03-15T18:29:59Z')).toEqual({
      businessDate: '2027-03-15',
      clockDate: '2027-03-15',
      aheadOfClock: false,
      achCutoff: '14:30',
      pastCutoff: false,
      earliestPaymentDate: '2027-03-15',
    });
    expect(await todayAt('2027-03-15T18:30:00Z')).toMatchObject({ businessDate: '2027-03-15', pastCutoff: true, earliestPaymentDate: '2027-03-16' });
    // 23:30 in New York is already Tuesday in UTC: still Monday for the bank, past its cut-off.
    expect(await todayAt('2027-03-16T03:30:00Z')).toMatchObject({ businessDate: '2027-03-15', pastCutoff: true, earliestPaymentDate: '2027-03-16' });
    // Friday 2027-03-12 is still EST (UTC-5): its cut-off is 19:30 UTC, and after it the weekend is skipped.
    expect(await todayAt('2027-03-12T19:29:00Z')).toMatchObject({ businessDate: '2027-03-12', pastCutoff: false, earliestPaymentDate: '2027-03-12' });
    expect(await todayAt('2027-03-12T19:31:00Z')).toMatchObject({ businessDate: '2027-03-12', pastCutoff: true, earliestPaymentDate: '2027-03-15' });
    // Friday before Memorial Day (Monday 2027-05-31), after the cut-off: Tuesday.
    expect(await todayAt('2027-05-28T20:00:00Z')).toMatchObject({ businessDate: '2027-05-28', pastCutoff: true, earliestPaymentDate: '2027-06-01' });
  });

  it('on a weekend or a holiday: the cut-off never passes, and the first date is the next business day', async () => {
    expect(await todayAt('2027-03-13T15:00:00Z')).toMatchObject({ businessDate: '2027-03-13', pastCutoff: false, earliestPaymentDate: '2027-03-15' });
    expect(await todayAt('2027-03-13T23:00:00Z')).toMatchObject({ businessDate: '2027-03-13', pastCutoff: false, earliestPaymentDate: '2027-03-15' });
    // Independence Day 2027 is a Sunday, observed on Monday 5 July.
    expect(await todayAt('2027-07-05T13:00:00Z')).toMatchObject({ businessDate: '2027-07-05', pastCutoff: false, earliestPaymentDate: '2027-07-06' });
    expect(await todayAt('2027-07-05T22:00:00Z')).toMatchObject({ businessDate: '2027-07-05', pastCutoff: false, earliestPaymentDate: '2027-07-06' });
  });

  it("in a sandbox run ahead of the clock: the business date's cut-off is still to come", async () => {
    // End of day ran through Friday 2027-07-16; the clock reads Tuesday 2027-07-06, after its cut-off.
    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ('2027-07-16', '2027-07-06', 'done', now())");
    expect(await todayAt('2027-07-06T20:00:00Z')).toEqual({
      businessDate: '2027-07-16',
      clockDate: '2027-07-06',
      aheadOfClock: true,
      achCutoff: '14:30',
      pastCutoff: false,
      earliestPaymentDate: '2027-07-16',
    });
    // Ahead to a Saturday: the Monday after.
    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ('2027-07-17', '2027-07-17', 'done', now())");
    expect(await todayAt('2027-07-06T20:00:00Z')).toMatchObject({
      businessDate: '2027-07-17',
      aheadOfClock: true,
      pastCutoff: false,
      earliestPaymentDate: '2027-07-19',
    });
  });
});
