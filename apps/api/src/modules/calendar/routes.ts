import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bankTodaySchema, businessDaysQuerySchema, businessDaysSchema, maxCalendarRangeDays } from '@strongroom/contracts/calendar.ts';
import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { errorResponses } from '../../platform/error-responses.ts';
import { AppError } from '../../platform/errors.ts';
import { addDays, calendarDayIn, earliestPaymentDate, isBusinessDay, isPastCutoff } from '../../platform/business-calendar.ts';
import { bankDate } from '../../platform/bank-date.ts';

const dayMs = 24 * 3_600_000;

/** The calendar days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1;
}

/** The bank's business calendar (docs/product.md section 7), public: `GET /calendar/business-days` and `GET /calendar/today`. */
export function calendarRoutes(dependencies: { db: Queryable; config: Pick<Config, 'bankTimeZone' | 'achCutoff'>; clock?: Clock }): FastifyPluginAsyncZod {
  const { db, config, clock = systemClock } = dependencies;
  return async (app) => {
    app.get(
      '/calendar/business-days',
      { schema: { tags: ['calendar'], querystring: businessDaysQuerySchema, response: { 200: businessDaysSchema, ...errorResponses(400) } } },
      async (request) => {
        const { from, to } = request.query;
        if (to < from) throw new AppError('validation_failed', 'The range ends before it starts', { fields: { to: 'to is on or after from' } });
        const length = daysBetween(from, to);
        if (length > maxCalendarRangeDays)
          throw new AppError('validation_failed', `Ask for at most ${maxCalendarRangeDays} days at a time`, {
            fields: { to: `to is at most ${maxCalendarRangeDays - 1} days after from` },
          });
        const days: string[] = [];
        for (let offset = 0; offset < length; offset += 1) {
          const day = addDays(from, offset);
          if (isBusinessDay(day)) days.push(day);
        }
        return { days };
      },
    );

    app.get('/calendar/today', { schema: { tags: ['calendar'], response: { 200: bankTodaySchema } } }, async () => {
      const now = clock.now();
      const { bankTimeZone: timeZone, achCutoff } = config;
      const clockDate = calendarDayIn(timeZone, now);
      const businessDate = await bankDate(db, config, clock);
      return {
        businessDate,
        clockDate,
        aheadOfClock: businessDate > clockDate,
        achCutoff,
        // Read on the bank's date: in a sandbox run ahead of the clock its cut-off is still to come.
        pastCutoff: isPastCutoff(now, businessDate, achCutoff, timeZone),
        earliestPaymentDate: earliestPaymentDate(now, businessDate, achCutoff, timeZone),
      };
    });
  };
}
