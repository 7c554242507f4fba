import { CalendarX } from 'lucide-react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { useUpcomingPayments } from './api/scheduled-payments.ts';
import { formatDay, movedWording } from './schedule-dates.ts';
import { SkipOccurrence } from './skip-occurrence.tsx';

/** "Upcoming (next 90 days)": each payment of every schedule, soonest first, with Skip while it can still be changed. */
export function UpcomingList() {
  const upcoming = useUpcomingPayments();
  if (upcoming.isPending) return <LoadingLine>Loading your upcoming payments…</LoadingLine>;
  if (upcoming.isError) return <LoadFailed title="We could not load your upcoming payments" headingLevel={3} query={upcoming} />;
  if (upcoming.data.items.length === 0) {
    return (
      <EmptyState icon={<CalendarX aria-hidden="true" size={32} />} title="No scheduled payments" headingLevel={3}>
        <p>Nothing is due in the next 90 days.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="schedule-rows">
      {upcoming.data.items.map((item) => {
        const moved = movedWording(item.dueDate, item.date);
        return (
          <li key={`${item.scheduleId}-${item.date}-${item.retry ? 'retry' : 'due'}`} className="schedule-row">
            <div className="schedule-row__main">
              <span className="schedule-row__title">{formatDay(item.date, { withYear: true })}</span>
              <span>{item.description}</span>
              <span className="schedule-row__meta">
                arrives by {formatDay(item.arrivesBy)}
                {moved ? `; ${moved}` : ''}
              </span>
              {item.retry ? (
                <Badge tone="warning" size="xs">
                  Retry
                </Badge>
              ) : null}
            </div>
            <span className="schedule-row__amount tabular">{formatMoney(item.amountCents)}</span>
            {item.changeable ? (
              <SkipOccurrence scheduleId={item.scheduleId} date={item.date} amountCents={item.amountCents} description={item.description} />
            ) : (
              <span className="schedule-row__meta">On its way</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
