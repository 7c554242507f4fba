import type { LoanStatus, ScheduleLine } from '@strongroom/contracts/loans.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { loanStatusWords, scheduleStatusWords } from './loan-format.ts';

type BadgeStatus = LoanStatus | ScheduleLine['status'];

const statusTones: Readonly<Record<BadgeStatus, BadgeTone>> = {
  active: 'success',
  paid: 'success',
  paid_off: 'success',
  submitted: 'warning',
  offered: 'warning',
  due: 'neutral',
  declined: 'neutral',
  expired: 'neutral',
  late: 'danger',
  rejected: 'danger',
};

/** The shared badge, keeping the `loan-badge--{status}` class the schedule's late rows are styled by. */
function StatusBadge({ status, words }: { status: BadgeStatus; words: string }) {
  return (
    <Badge tone={statusTones[status]} dot className={`loan-badge loan-badge--${status}`}>
      {words}
    </Badge>
  );
}

/** A loan's status by word and by colour (the word alone carries it for those who cannot see colour). */
export function LoanStatusBadge({ status }: { status: LoanStatus }) {
  return <StatusBadge status={status} words={loanStatusWords[status]} />;
}

export function InstalmentStatusBadge({ status }: { status: ScheduleLine['status'] }) {
  return <StatusBadge status={status} words={scheduleStatusWords[status]} />;
}
