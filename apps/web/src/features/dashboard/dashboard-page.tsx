import { Link } from 'react-router';
import { Landmark } from 'lucide-react';
import { greetingForHour } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { useMe } from '../../lib/api/get-me.ts';
import { AccountList } from './account-list.tsx';
import { CardTiles } from './card-tiles.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { MonthSummary } from './month-summary.tsx';
import { WelcomeDialog } from './welcome-dialog.tsx';
import './dashboard-page.css';

function Accounts() {
  const accounts = useAccounts();
  if (accounts.isPending) {
    return <LoadingLine>Loading your accounts…</LoadingLine>;
  }
  if (accounts.isError) {
    return <LoadFailed title="We could not load your accounts" headingLevel={3} query={accounts} />;
  }
  if (accounts.data.length === 0) {
    return (
      <EmptyState icon={<Landmark aria-hidden="true" size={28} />} title="No accounts yet" headingLevel={3}>
        <p>We open your checking and savings accounts as soon as your identity has been checked. This page shows them by itself when they are ready.</p>
      </EmptyState>
    );
  }
  return <AccountList accounts={accounts.data} />;
}

/**
 * The dashboard (also /home): the greeting of the hour, the accounts with their
 * balances, this month's money in and out and spending, the number of cards and loans, and the
 * latest transactions, all from the ledger. A welcome greets the customer on their first visit.
 */
export default function DashboardPage() {
  const me = useMe();
  const { name: bankName } = useBankIdentity();
  const user = me.data?.user;
  const greeting = greetingForHour(new Date().getHours());
  return (
    <Page width="wide" className="dashboard">
      <PageMeta title="Dashboard" description="Your accounts at a glance." noIndex />
      <PageHeader title="Your dashboard" above={<p className="dashboard__greeting">{user ? `${greeting}, ${user.firstName}` : greeting}</p>} />
      <section aria-labelledby="accounts-title" className="dashboard__section">
        <div className="dashboard__section-heading">
          <h2 id="accounts-title" className="dashboard__section-title">
            Accounts
          </h2>
          <Link className={buttonClassName({ variant: 'secondary', size: 'sm' })} to="/accounts/open">
            Open an account
          </Link>
        </div>
        <Accounts />
      </section>
      <CardTiles />
      <MonthSummary />
      {user ? <WelcomeDialog key={user.id} userId={user.id} firstName={user.firstName} bankName={bankName} /> : null}
    </Page>
  );
}
