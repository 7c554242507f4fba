import type { CreateScheduledPaymentRequest, DayOfMonth, OccurrenceStatus, ScheduleFrequency } from '@strongroom/contracts/scheduled-payments.ts';
import type { BadgeTone } from '../../components/ui/badge.tsx';
import { ApiError, type ApiErrorCode } from '../../lib/api-client.ts';
import { formatDay } from './schedule-dates.ts';

const frequencyWords: Record<Exclude<ScheduleFrequency, 'once'>, string> = { weekly: 'Every week', biweekly: 'Every two weeks', monthly: 'Every month' };

function dayWords(dayOfMonth: DayOfMonth): string {
  return dayOfMonth === 'last' ? 'on the last business day' : `on day ${dayOfMonth}`;
}

type When = Pick<CreateScheduledPaymentRequest, 'frequency' | 'startDate'> & {
  dayOfMonth?: DayOfMonth | null | undefined;
  endDate?: string | null | undefined;
  count?: number | null | undefined;
};

/** "Every month on day 31, from Sat 14 Mar 2026, until you cancel": a schedule's rule in one line. */
export function whenSummary(when: When): string {
  const start = formatDay(when.startDate, { withYear: true });
  if (when.frequency === 'once') return `Once, on ${start}`;
  const how =
    when.frequency === 'monthly' && when.dayOfMonth != null ? `${frequencyWords.monthly} ${dayWords(when.dayOfMonth)}` : frequencyWords[when.frequency];
  const end =
    when.endDate != null
      ? `until ${formatDay(when.endDate, { withYear: true })}`
      : when.count != null
        ? `${when.count} payment${when.count === 1 ? '' : 's'}`
        : 'until you cancel';
  return `${how}, from ${start}, ${end}`;
}

/** The errors of changing a schedule, in words; anything else keeps the server's message. */
const scheduleErrorWords: Partial<Record<ApiErrorCode, string>> = {
  past_cutoff: 'Today’s cut-off has passed for this payment: it is already on its way and can no longer be changed.',
  schedule_ended: 'This schedule has ended: there is nothing left to change.',
  not_an_occurrence: 'That date is not one of this schedule’s payments. The list has been refreshed: please look again.',
};

export function scheduleErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return scheduleErrorWords[error.code] ?? error.message;
  return 'We could not read the bank’s answer. Please look at your scheduled payments before you try again.';
}

export const occurrenceStatusWords: Record<OccurrenceStatus, { label: string; tone: BadgeTone }> = {
  scheduled: { label: 'Scheduled', tone: 'accent' },
  paid: { label: 'Paid', tone: 'success' },
  skipped: { label: 'Skipped', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

export const scheduleStatusWords = {
  active: { label: 'Active', tone: 'success' },
  completed: { label: 'Completed', tone: 'neutral' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
} as const satisfies Record<string, { label: string; tone: BadgeTone }>;
