import { Link } from 'react-router';
import { CalendarPlus } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { ScheduleList } from './schedule-list.tsx';
import { UpcomingList } from './upcoming-list.tsx';
import './scheduled-payments.css';

/** /payments/scheduled: the payments of the next 90 days, and the schedules they come from. */
export default function ScheduledPaymentsPage() {
  return (
    <Page>
      <PageMeta title="Scheduled payments" description="Your upcoming and repeating payments." noIndex />
      <PageHeader
        title="Scheduled payments"
        lead="Payments on a date or repeating. Until a payment’s cut-off you can skip it, or change or cancel its schedule."
        actions={
          <Link to="/payments/scheduled/new" className={buttonClassName({ variant: 'primary' })}>
            <CalendarPlus aria-hidden="true" size={18} />
            Schedule a payment
          </Link>
        }
      />
      <section aria-labelledby="upcoming-title" className="schedule-section">
        <h2 id="upcoming-title">Upcoming (next 90 days)</h2>
        <UpcomingList />
      </section>
      <section aria-labelledby="schedules-title" className="schedule-section">
        <h2 id="schedules-title">Your schedules</h2>
        <ScheduleList />
      </section>
    </Page>
  );
}
