import { Link } from 'react-router';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { useSchedules } from './api/scheduled-payments.ts';
import { formatDay } from './schedule-dates.ts';
import { scheduleStatusWords, whenSummary } from './schedule-words.ts';

/** "Your schedules": each with its rule, its next date and a link to it. */
export function ScheduleList() {
  const schedules = useSchedules();
  if (schedules.isPending) return <LoadingLine>Loading your schedules…</LoadingLine>;
  if (schedules.isError) return <LoadFailed title="We could not load your schedules" headingLevel={3} query={schedules} />;
  if (schedules.data.items.length === 0) return <p className="schedule-rows__empty">You have no schedules yet.</p>;
  return (
    <ul className="schedule-rows">
      {schedules.data.items.map((schedule) => {
        const status = scheduleStatusWords[schedule.status];
        const next = schedule.next[0];
        return (
          <li key={schedule.id} className="schedule-row">
            <div className="schedule-row__main">
              <Link to={`/payments/scheduled/${encodeURIComponent(schedule.id)}`} className="schedule-row__title">
                {schedule.description}
              </Link>
              <span className="schedule-row__meta">{whenSummary(schedule)}</span>
              {next && schedule.status === 'active' ? <span className="schedule-row__meta">Next: {formatDay(next, { withYear: true })}</span> : null}
              <Badge tone={status.tone} size="xs">
                {status.label}
              </Badge>
            </div>
            <span className="schedule-row__amount tabular">{formatMoney(schedule.payment.amountCents)}</span>
          </li>
        );
      })}
    </ul>
  );
}
