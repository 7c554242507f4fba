import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import type { PaymentDependencies } from './dependencies.ts';
import { finishMicroDeposits } from '../funding-sources/service.ts';
import { finishReversals, settleDuePayments } from './rail-outcomes.ts';
import { unfinishedAfterMs } from './service.ts';
import { reconcileDecisions } from './settlement.ts';

export const paymentSweepJobKind = 'payments.sweep';

/** How often the rail simulator looks for due payments: seconds matter only to a fast rail. */
export function sweepIntervalMs(speed: PaymentDependencies['config']['railSpeed']): number {
  return speed === 'realistic' ? 60_000 : 1_000;
}

/**
 * One recurring job settles due payments, applies decisions a crash interrupted, finishes
 * micro-deposits a dead request left behind, writes the reversals of late returns
 * and lets money that came in pay what an account owes. It lives in the jobs table, so it survives a restart, and
 * every step is idempotent. Returns a function that asks for a sweep now (instant rails).
 */
export function registerPaymentJobs(jobs: JobRunner, dependencies: PaymentDependencies): () => Promise<void> {
  jobs.register(paymentSweepJobKind, async () => {
    await finishMicroDeposits(dependencies.db, unfinishedAfterMs / 1_000);
    await reconcileDecisions(dependencies);
    await finishReversals(dependencies);
    await settleDuePayments(dependencies);
  });
  jobs.every(paymentSweepJobKind, sweepIntervalMs(dependencies.config.railSpeed));
  return async () => {
    await jobs.enqueue({ kind: paymentSweepJobKind });
  };
}
