import { Link } from 'react-router';
import { CalendarCheck } from 'lucide-react';
import type { ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { previewLength } from './schedule-dates.ts';
import { DateList } from './schedule-preview.tsx';
import { whenSummary } from './schedule-words.ts';

export interface ScheduleConfirmationProps {
  schedule: ScheduledPayment;
  /** "Payment scheduled" or "Schedule changed". */
  title: string;
  onAnother?: () => void;
}

/** After the bank accepted the schedule: what it pays, and its next dates as the bank worked them out. */
export function ScheduleConfirmation({ schedule, title, onAnother }: ScheduleConfirmationProps) {
  const dates =
    schedule.upcoming.length > 0
      ? schedule.upcoming.slice(0, previewLength)
      : schedule.next.slice(0, previewLength).map((date) => ({ date, dueDate: date, arrivesBy: null }));
  return (
    <section className="schedule-confirmation" aria-labelledby="schedule-confirmation-title" role="status">
      <Notice tone="success">
        <h2 id="schedule-confirmation-title" className="schedule-confirmation__title">
          <CalendarCheck aria-hidden="true" size={20} /> {title}
        </h2>
        <p>
          {formatMoney(schedule.payment.amountCents)}: {schedule.description}. {whenSummary(schedule)}.
        </p>
      </Notice>
      <h3 className="schedule-preview__title">Next payments</h3>
      {dates.length > 0 ? <DateList dates={dates} dayOfMonth={schedule.dayOfMonth} /> : <p>No payment falls in the next 90 days.</p>}
      <div className="schedule-confirmation__actions">
        <Link to={`/payments/scheduled/${encodeURIComponent(schedule.id)}`} className={buttonClassName({ variant: 'primary' })}>
          See this schedule
        </Link>
        <Link to="/payments/scheduled" className={buttonClassName({ variant: 'secondary' })}>
          All scheduled payments
        </Link>
        {onAnother ? (
          <Button variant="ghost" onClick={onAnother}>
            Schedule another payment
          </Button>
        ) : null}
      </div>
    </section>
  );
}
