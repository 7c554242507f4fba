import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { createTransferRequestSchema } from './payments.ts';

/**
 * Payments now, later or repeating (issue 33 items 3-5; docs/bill-pay.md). A schedule holds one
 * `POST /transfers` body (kind own, internal, external or bill) and a recurrence; each occurrence
 * falls on a business day (weekends and Federal Reserve holidays skipped: a date that is not one
 * goes on the business day before) and is paid once, by the scheduled-payments job, at its day's
 * cut-off (ACH_CUTOFF, bank time). Until then the customer may edit, skip or cancel it.
 */

export const scheduleFrequencies = ['once', 'weekly', 'biweekly', 'monthly'] as const;
export const scheduleFrequencySchema = z.enum(scheduleFrequencies);
export type ScheduleFrequency = z.infer<typeof scheduleFrequencySchema>;

/** A day of the month, 1-31 (a 31st in a 30-day month is that month's last day), or "last": the month's last business day. */
export const dayOfMonthSchema = z.union([z.number().int().min(1).max(31), z.literal('last')], { error: 'the day of the month is 1 to 31, or "last"' });
export type DayOfMonth = z.infer<typeof dayOfMonthSchema>;

/** At most this many payments in a series with a count. */
export const maxScheduleCount = 520;
/** How far ahead a schedule's first payment, or its end date, may be: a year (366 days) after the bank's date. */
export const maxScheduleDaysAhead = 366;
/** How far ahead the upcoming list and a schedule's occurrences look. */
export const upcomingDays = 90;

export const scheduleMessages = {
  cardNotSchedulable: 'a card payment cannot be scheduled: send it now',
  dayOfMonthOnlyMonthly: 'a day of the month is for monthly payments only',
  endOnlyRepeating: 'a one-off payment has no end date or count',
  endDateOrCount: 'choose an end date or a number of payments, not both',
  endBeforeStart: 'the end date is before the first payment',
  startInPast: 'the first payment cannot be dated before today',
  tooFarAhead: 'a date can be at most a year ahead',
} as const;

/** `POST /scheduled-payments` (header Idempotency-Key; X-Step-Up when the payment needs one, as `POST /transfers`) and `PUT /scheduled-payments/{id}`. */
export const createScheduledPaymentRequestSchema = z
  .object({
    payment: createTransferRequestSchema,
    startDate: z.iso.date({ error: 'the first payment date is a date (YYYY-MM-DD)' }),
    frequency: scheduleFrequencySchema,
    dayOfMonth: dayOfMonthSchema.optional(),
    endDate: z.iso.date({ error: 'the end date is a date (YYYY-MM-DD)' }).optional(),
    count: z.number().int().min(1, 'at least 1 payment').max(maxScheduleCount, `at most ${maxScheduleCount} payments`).optional(),
  })
  .superRefine((body, context) => {
    if (body.payment.kind === 'card') context.addIssue({ code: 'custom', path: ['payment', 'kind'], message: scheduleMessages.cardNotSchedulable });
    if (body.dayOfMonth !== undefined && body.frequency !== 'monthly') {
      context.addIssue({ code: 'custom', path: ['dayOfMonth'], message: scheduleMessages.dayOfMonthOnlyMonthly });
    }
    if (body.frequency === 'once' && (body.endDate !== undefined || body.count !== undefined)) {
      context.addIssue({ code: 'custom', path: ['endDate'], message: scheduleMessages.endOnlyRepeating });
    }
    if (body.endDate !== undefined && body.count !== undefined) context.addIssue({ code: 'custom', path: ['count'], message: scheduleMessages.endDateOrCount });
    if (body.endDate !== undefined && body.endDate < body.startDate)
      context.addIssue({ code: 'custom', path: ['endDate'], message: scheduleMessages.endBeforeStart });
  });
export type CreateScheduledPaymentRequest = z.input<typeof createScheduledPaymentRequestSchema>;

/** One occurrence ahead: the business day it is paid, the date it was due (when moved off a weekend or holiday), and when the money arrives. */
export const upcomingOccurrenceSchema = z.object({
  date: z.iso.date(),
  /** The date the recurrence names; differs from `date` when that is not a business day. */
  dueDate: z.iso.date(),
  /** own and internal: the same day; external and bill (ACH): the next business day. */
  arrivesBy: z.iso.date(),
  /** Until the cut-off of `date` the customer may skip it (or edit or cancel the series). */
  changeable: z.boolean(),
});
export type UpcomingOccurrence = z.infer<typeof upcomingOccurrenceSchema>;

export const scheduleStatusSchema = z.enum(['active', 'completed', 'cancelled']);

export const scheduledPaymentSchema = z.object({
  id: z.string(),
  status: scheduleStatusSchema,
  frequency: scheduleFrequencySchema,
  dayOfMonth: dayOfMonthSchema.nullable(),
  startDate: z.iso.date(),
  endDate: z.iso.date().nullable(),
  count: z.number().int().nullable(),
  payment: z.object({
    kind: z.enum(['own', 'internal', 'external', 'bill']),
    fromAccountId: z.string(),
    amountCents: centsSchema,
    message: z.string(),
    /**
     * The recipient as the schedule holds it (the POST body's own fields), so that Edit can show the
     * form filled in: toAccountId (own), billPayeeId (bill), the account and bank (internal, external).
     */
    toAccountId: z.string().optional(),
    billPayeeId: z.string().optional(),
    toAccountNumber: z.string().optional(),
    accountName: z.string().optional(),
    routeNumber: z.string().optional(),
    nameOfBank: z.string().optional(),
    nameOfCountry: z.string().optional(),
  }),
  /** What each payment's history line says, e.g. "Bill payment to City Water, account ending 4821". */
  description: z.string(),
  /** The next occurrences' dates (business days), soonest first. */
  next: z.array(z.iso.date()),
  /** The occurrences of the next 90 days. */
  upcoming: z.array(upcomingOccurrenceSchema),
  createdAt: z.iso.datetime(),
});
export type ScheduledPayment = z.infer<typeof scheduledPaymentSchema>;

export const scheduledPaymentResponseSchema = z.object({ schedule: scheduledPaymentSchema });
export const scheduledPaymentListSchema = z.object({ items: z.array(scheduledPaymentSchema) });

export const occurrenceStatusSchema = z.enum(['scheduled', 'paid', 'skipped', 'failed', 'cancelled']);
export type OccurrenceStatus = z.infer<typeof occurrenceStatusSchema>;

export const occurrenceSchema = z.object({
  date: z.iso.date(),
  status: occurrenceStatusSchema,
  transferId: z.string().optional(),
  /** Why a failed or skipped occurrence was not paid (insufficient funds twice, a frozen account, a limit...). */
  reason: z.string().optional(),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

/** `GET /scheduled-payments/{id}`: the schedule, its past occurrences and those of the next 90 days, by date. */
export const scheduledPaymentDetailSchema = z.object({ schedule: scheduledPaymentSchema, occurrences: z.array(occurrenceSchema) });
export type ScheduledPaymentDetail = z.infer<typeof scheduledPaymentDetailSchema>;

/** `POST /scheduled-payments/{id}/skip`. */
export const skipOccurrenceRequestSchema = z.object({ date: z.iso.date() });

/** `GET /scheduled-payments/upcoming`: every occurrence of the customer's schedules in the next 90 days, soonest first. */
export const upcomingPaymentSchema = upcomingOccurrenceSchema.extend({
  scheduleId: z.string(),
  kind: z.enum(['own', 'internal', 'external', 'bill']),
  amountCents: centsSchema,
  description: z.string(),
  /** A retry of a payment refused for want of money (the next business day after its date). */
  retry: z.boolean(),
});
export type UpcomingPayment = z.infer<typeof upcomingPaymentSchema>;
export const upcomingPaymentListSchema = z.object({ items: z.array(upcomingPaymentSchema) });
