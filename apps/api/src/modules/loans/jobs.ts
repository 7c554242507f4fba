import { systemClock } from '../../db/clock.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { runLoanRepayments } from './repayments.ts';
import { bankToday, type LoanDependencies } from './service.ts';

export const loanRepaymentJobKind = 'loans.repayments';
/**
 * The daily collection runs as of the bank's today; it is enqueued every hour so that a server
 * started at any time collects the same day, and a second run that day moves nothing twice (the
 * transfer ids are derived from the day) and tells no one twice (docs/decisions/027-loans.md).
 */
export const loanRepaymentIntervalMs = 60 * 60 * 1_000;

export function registerLoanJobs(jobs: JobRunner, dependencies: LoanDependencies): void {
  jobs.register(loanRepaymentJobKind, async () => {
    await runLoanRepayments(dependencies, bankToday(dependencies.config.bankTimeZone, (dependencies.clock ?? systemClock).now()));
  });
  jobs.every(loanRepaymentJobKind, loanRepaymentIntervalMs);
}
