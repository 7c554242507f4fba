import type { LoanStatus, ScheduleLine } from '@strongroom/contracts/loans.ts';

export { formatAprBps } from '@strongroom/contracts/loans.ts';

const dueDateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A calendar date (`YYYY-MM-DD`, as the schedule gives due dates) as `Dec 24, 2026`. It names a day,
 * not an instant: read in UTC so that no time zone moves it to the day before.
 */
export function formatCalendarDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate) || Number.isNaN(date.getTime())) throw new RangeError(`not a calendar date: ${isoDate}`);
  return dueDateFormat.format(date);
}

export const loanStatusWords: Readonly<Record<LoanStatus, string>> = {
  submitted: 'Waiting for a decision',
  rejected: 'Not approved',
  offered: 'Offer waiting for you',
  active: 'Active',
  declined: 'Offer declined',
  expired: 'Offer expired',
  paid_off: 'Paid off',
};

/**
 * What pays the loan off today (as the server counts it): each late instalment in full (its interest
 * is already due) and the principal of the instalments not yet due.
 */
export function payoffCents(schedule: readonly ScheduleLine[]): number {
  return schedule.reduce((sum, line) => sum + (line.status === 'late' ? line.paymentCents : line.status === 'due' ? line.principalCents : 0), 0);
}

/** What the late instalments still owe. */
export function lateCents(schedule: readonly ScheduleLine[]): number {
  return schedule.reduce((sum, line) => sum + (line.status === 'late' ? line.paymentCents : 0), 0);
}

export const scheduleStatusWords: Readonly<Record<ScheduleLine['status'], string>> = {
  paid: 'Paid',
  due: 'Due',
  late: 'Late',
};

/** "24 months" / "1 month". */
export function formatMonths(months: number): string {
  return `${months} ${months === 1 ? 'month' : 'months'}`;
}
