import { Landmark } from 'lucide-react';
import { greetingForHour } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import './dashboard-page.css';

/**
 * The dashboard (also /home and /new-card). It shows only what is real today: the greeting of the
 * hour and an honest empty state; accounts, cards and metrics arrive with their own features.
 */
export default function DashboardPage() {
  const greeting = greetingForHour(new Date().getHours());
  return (
    <div className="dashboard">
      <PageMeta title="Dashboard" description="Your accounts at a glance." noIndex />
      <header className="dashboard__header">
        <p className="dashboard__greeting">{greeting}</p>
        <h1>Your dashboard</h1>
      </header>
      <EmptyState icon={<Landmark aria-hidden="true" size={28} />} title="No accounts yet">
        <p>
          Your accounts appear here once they are opened. We open your current and savings accounts as soon as your
          identity has been checked.
        </p>
      </EmptyState>
    </div>
  );
}
