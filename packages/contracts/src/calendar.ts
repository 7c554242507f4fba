import { z } from 'zod';

/** The widest range `GET /calendar/business-days` answers, in calendar days (a leap year). */
export const maxCalendarRangeDays = 366;

/** `GET /calendar/business-days?from=YYYY-MM-DD&to=YYYY-MM-DD` (public, docs/product.md section 7). */
export const businessDaysQuerySchema = z.object({
  from: z.iso.date({ error: 'from is a date (YYYY-MM-DD)' }),
  to: z.iso.date({ error: 'to is a date (YYYY-MM-DD)' }),
});
export type BusinessDaysQuery = z.infer<typeof businessDaysQuerySchema>;

/** The bank's business days from `from` to `to`, both included: weekends and Federal Reserve holidays (as observed) left out. */
export const businessDaysSchema = z.object({ days: z.array(z.iso.date()) });
export type BusinessDays = z.infer<typeof businessDaysSchema>;

/**
 * `GET /calendar/today` (public): the bank's business date and today's date in the bank's time
 * zone. In a sandbox whose end-of-day job ran ahead (the demo's time machine) the business date
 * is after today, and `aheadOfClock` is true.
 */
export const bankTodaySchema = z.object({
  businessDate: z.iso.date(),
  clockDate: z.iso.date(),
  aheadOfClock: z.boolean(),
  /** ACH_CUTOFF, bank time (HH:MM): a payment of today made after it leaves the next business day (issue 33). */
  achCutoff: z.string().regex(/^\d{2}:\d{2}$/),
  /** Whether today's cut-off has passed (always false on a day that is not a business day: nothing leaves then). */
  pastCutoff: z.boolean(),
  /** The first date a payment made now can be dated: today before the cut-off on a business day, else the next business day. */
  earliestPaymentDate: z.iso.date(),
});
export type BankToday = z.infer<typeof bankTodaySchema>;
