import { Link } from 'react-router';
import type { ScheduledPaymentDetail } from '@strongroom/contracts/scheduled-payments.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { formatDay, movedWording } from './schedule-dates.ts';
import { occurrenceStatusWords } from './schedule-words.ts';
import { SkipOccurrence } from './skip-occurrence.tsx';

/** A schedule's payments by date: each with its status in words, why one was not paid, and Skip while it can be. */
export function OccurrenceList({ detail }: { detail: ScheduledPaymentDetail }) {
  const { schedule, occurrences } = detail;
  if (occurrences.length === 0) return <p className="schedule-rows__empty">No payment of this schedule falls in the next 90 days.</p>;
  return (
    <ul className="schedule-rows">
      {occurrences.map((occurrence) => {
        const status = occurrenceStatusWords[occurrence.status];
        const upcoming = schedule.upcoming.find((candidate) => candidate.date === occurrence.date);
        const moved = upcoming ? movedWording(upcoming.dueDate, upcoming.date) : null;
        const canSkip = occurrence.status === 'scheduled' && schedule.status === 'active' && upcoming?.changeable === true;
        return (
          <li key={occurrence.date} className="schedule-row">
            <div className="schedule-row__main">
              <span className="schedule-row__title">{formatDay(occurrence.date, { withYear: true })}</span>
              <Badge tone={status.tone} size="xs">
                {status.label}
              </Badge>
              {upcoming ? <span className="schedule-row__meta">arrives by {formatDay(upcoming.arrivesBy)}</span> : null}
              {moved ? <span className="schedule-row__meta">{moved}</span> : null}
              {occurrence.reason ? <span className="schedule-row__reason">{occurrence.reason}</span> : null}
              {occurrence.status === 'paid' && occurrence.transferId ? (
                <Link to="/transaction-history" className="schedule-row__meta">
                  See it in your history
                </Link>
              ) : null}
            </div>
            {canSkip ? (
              <SkipOccurrence scheduleId={schedule.id} date={occurrence.date} amountCents={schedule.payment.amountCents} description={schedule.description} />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
