import { systemClock } from '../../db/clock.ts';
import { bankDate } from '../../platform/bank-date.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import type { PaymentDependencies } from '../payments/service.ts';
import { runScheduledPayments } from './run.ts';

export const scheduledPaymentsJobKind = 'scheduled-payments.run';
/** Every five minutes: today's occurrences go within five minutes of the cut-off, and a server back after downtime catches up. */
export const scheduledPaymentsIntervalMs = 5 * 60 * 1_000;

/** The recurring run: every occurrence due through the bank's today, by the real clock (today's go once its cut-off passes). */
export function registerScheduledPaymentJobs(jobs: JobRunner, dependencies: PaymentDependencies): void {
  jobs.register(scheduledPaymentsJobKind, async () => {
    const clock = dependencies.clock ?? systemClock;
    const today = await bankDate(dependencies.db, dependencies.config, clock);
    await runScheduledPayments(dependencies, { through: today, now: clock.now() });
  });
  jobs.every(scheduledPaymentsJobKind, scheduledPaymentsIntervalMs);
}
