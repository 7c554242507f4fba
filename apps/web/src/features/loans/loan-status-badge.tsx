import type { LoanStatus, ScheduleLine } from '@strongroom/contracts/loans.ts';
import { loanStatusWords, scheduleStatusWords } from './loan-format.ts';

/** A loan's status by word and by colour (the word alone carries it for those who cannot see colour). */
export function LoanStatusBadge({ status }: { status: LoanStatus }) {
  return (
    <span className={`loan-badge loan-badge--${status}`}>
      <span className="loan-badge__dot" aria-hidden="true" />
      {loanStatusWords[status]}
    </span>
  );
}

export function InstalmentStatusBadge({ status }: { status: ScheduleLine['status'] }) {
  return (
    <span className={`loan-badge loan-badge--${status}`}>
      <span className="loan-badge__dot" aria-hidden="true" />
      {scheduleStatusWords[status]}
    </span>
  );
}
