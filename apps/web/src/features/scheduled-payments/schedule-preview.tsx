import type { DayOfMonth } from '@strongroom/contracts/scheduled-payments.ts';
import { useBusinessDays } from './api/scheduled-payments.ts';
import { addDays, arrivesByOf, dueDatesOf, formatDay, movedWording, paidOn, shortMonthWording, type RecurrenceRule } from './schedule-dates.ts';
import type { DateLimits, ScheduleFormValues } from './schedule-form-schema.ts';

export interface PreviewDate {
  date: string;
  dueDate: string;
  arrivesBy: string | null;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** The recurrence the form describes so far, or null while its first date is not a date in range. */
export function ruleOf(values: ScheduleFormValues, limits: DateLimits): RecurrenceRule | null {
  if (!isoDate.test(values.startDate) || values.startDate < limits.today || values.startDate > limits.latest) return null;
  if (values.repeat === 'once') return { frequency: 'once', startDate: values.startDate };
  const count = Number(values.count);
  return {
    frequency: values.frequency,
    startDate: values.startDate,
    dayOfMonth: values.frequency !== 'monthly' ? undefined : values.dayOfMonth === 'last' ? 'last' : Number(values.dayOfMonth),
    endDate: values.ends === 'date' && isoDate.test(values.endDate) ? values.endDate : undefined,
    count: values.ends === 'count' && Number.isInteger(count) && count > 0 ? count : undefined,
  };
}

/** The widest range the calendar answers (366 days, both ends included): a year back from the last date a schedule may use. */
export function calendarRangeOf(limits: DateLimits): [string, string] {
  return [addDays(limits.latest, -365), limits.latest];
}

/** The first dates of a rule on the bank's business days (a hint: the bank works them out again when it is made). */
export function previewDates(rule: RecurrenceRule, kind: string, businessDays: readonly string[]): PreviewDate[] {
  return dueDatesOf(rule).flatMap((dueDate) => {
    const date = paidOn(dueDate, businessDays);
    return date === null ? [] : [{ date, dueDate: rule.dayOfMonth === 'last' ? date : dueDate, arrivesBy: arrivesByOf(date, kind, businessDays) }];
  });
}

export interface DateListProps {
  dates: readonly PreviewDate[];
  dayOfMonth?: DayOfMonth | null | undefined;
}

/** Each date with its arrival, and why it is not the date the rule names when it is not. */
export function DateList({ dates, dayOfMonth }: DateListProps) {
  return (
    <ol className="schedule-dates">
      {dates.map((entry) => {
        const notes = [shortMonthWording(dayOfMonth, entry.dueDate), movedWording(entry.dueDate, entry.date)].filter(Boolean);
        return (
          <li key={entry.date} className="schedule-dates__item">
            <span className="schedule-dates__date">{formatDay(entry.date, { withYear: true })}</span>
            {entry.arrivesBy ? <span className="schedule-dates__arrives">arrives by {formatDay(entry.arrivesBy)}</span> : null}
            {notes.map((note) => (
              <span key={note} className="schedule-dates__note">
                {note}
              </span>
            ))}
          </li>
        );
      })}
    </ol>
  );
}

export interface SchedulePreviewProps {
  values: ScheduleFormValues;
  /** The transfer kind: own and internal arrive the same day, ACH the next business day. */
  kind: string;
  limits: DateLimits;
}

/** A live preview of the next dates, on the bank's calendar (`GET /calendar/business-days`). */
export function SchedulePreview({ values, kind, limits }: SchedulePreviewProps) {
  const rule = ruleOf(values, limits);
  const calendar = useBusinessDays(...calendarRangeOf(limits));
  if (rule === null || !calendar.data) return null;
  const dates = previewDates(rule, kind, calendar.data.days);
  if (dates.length === 0) return null;
  return (
    <section className="schedule-preview" aria-label="Next payments" aria-live="polite">
      <h2 className="schedule-preview__title">Next payments</h2>
      <p className="schedule-preview__hint">A preview: the bank confirms the dates when you schedule the payment.</p>
      <DateList dates={dates} dayOfMonth={rule.dayOfMonth} />
    </section>
  );
}
