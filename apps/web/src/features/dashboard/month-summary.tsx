import { Link } from 'react-router';
import { ArrowDownLeft, ArrowUpRight, ChartPie, CreditCard, Landmark, Percent, Receipt } from 'lucide-react';
import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useDashboardSummary } from './api/get-dashboard.ts';
import { RecentTransactions } from './recent-transactions.tsx';
import { SpendingChart } from './spending-chart.tsx';
import './month-summary.css';

const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'YYYY-MM' -> 'March 2026'. */
export function monthLabel(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (year === undefined || monthNumber === undefined || !(monthNumber >= 1 && monthNumber <= 12)) throw new RangeError(`not a month: ${month}`);
  return monthFormat.format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}

/**
 * The month's totals, each in its colour with its icon: money in and out, and the interest earned
 * and fees paid (fees less refunds), these two with their year so far beneath.
 */
const flows = [
  { term: 'Money in', Icon: ArrowDownLeft, tone: 'money-in', cents: (summary: DashboardSummary) => summary.moneyInCents, yearCents: null },
  { term: 'Money out', Icon: ArrowUpRight, tone: 'money-out', cents: (summary: DashboardSummary) => summary.moneyOutCents, yearCents: null },
  {
    term: 'Interest earned',
    Icon: Percent,
    tone: 'money-in',
    cents: (summary: DashboardSummary) => summary.interestEarnedCents,
    yearCents: (summary: DashboardSummary) => summary.interestEarnedYearCents,
  },
  {
    term: 'Fees paid',
    Icon: Receipt,
    tone: 'money-out',
    cents: (summary: DashboardSummary) => summary.feesPaidCents,
    yearCents: (summary: DashboardSummary) => summary.feesPaidYearCents,
  },
] as const;

function ThisMonth({ summary }: { summary: DashboardSummary }) {
  const label = monthLabel(summary.month);
  const hasSpending = summary.spendingByCategory.some((slice) => slice.amountCents > 0);
  return (
    <section aria-labelledby="month-title" className="dashboard__section">
      <h2 id="month-title" className="dashboard__section-title">
        This month <span className="month-summary__month">{label}</span>
      </h2>
      <Card className="month-summary">
        <dl className="month-summary__flows">
          {flows.map(({ term, Icon, tone, cents, yearCents }) => (
            <div key={term} className="month-summary__flow">
              <dt>
                <Icon aria-hidden="true" size={18} className={tone} />
                {term}
              </dt>
              <dd className={`${tone} tabular`}>{formatMoney(cents(summary))}</dd>
              {yearCents ? <dd className="month-summary__year tabular">{formatMoney(yearCents(summary))} this year</dd> : null}
            </div>
          ))}
        </dl>
        <h3 className="month-summary__chart-title">Spending by category</h3>
        {hasSpending ? (
          <SpendingChart spending={summary.spendingByCategory} monthLabel={label} />
        ) : (
          <EmptyState icon={<ChartPie aria-hidden="true" size={28} />} title="No spending this month yet" headingLevel={3}>
            <p>When you pay, transfer or withdraw money, this chart shows where it went.</p>
          </EmptyState>
        )}
      </Card>
    </section>
  );
}

function CardsAndLoans({ summary }: { summary: DashboardSummary }) {
  return (
    <section aria-labelledby="products-title" className="dashboard__section">
      <h2 id="products-title" className="dashboard__section-title">
        Cards and loans
      </h2>
      <dl className="month-summary__products">
        <Card>
          <dt>
            <CreditCard aria-hidden="true" size={20} />
            Cards
          </dt>
          <dd className="tabular">{summary.cardCount}</dd>
        </Card>
        <Card>
          <dt>
            <Landmark aria-hidden="true" size={20} />
            Loans
          </dt>
          <dd className="tabular">
            <Link to="/loan" aria-label={`${summary.loanCount} ${summary.loanCount === 1 ? 'loan' : 'loans'}: see your loans`}>
              {summary.loanCount}
            </Link>
          </dd>
        </Card>
      </dl>
    </section>
  );
}

/**
 * The figures of `GET /dashboard`: this month's money in and out and spending by category, the
 * number of cards and loans, and the latest transactions. One request, one loading and error state.
 */
export function MonthSummary() {
  const summary = useDashboardSummary();
  if (summary.isPending || summary.isError) {
    return (
      <section aria-labelledby="month-title" className="dashboard__section">
        <h2 id="month-title" className="dashboard__section-title">
          This month
        </h2>
        {summary.isPending ? (
          <LoadingLine>Loading this month’s figures…</LoadingLine>
        ) : (
          <LoadFailed title="We could not load this month’s figures" headingLevel={3} query={summary} />
        )}
      </section>
    );
  }
  return (
    <>
      <ThisMonth summary={summary.data} />
      <CardsAndLoans summary={summary.data} />
      <section aria-labelledby="recent-title" className="dashboard__section">
        <div className="month-summary__section-header">
          <h2 id="recent-title" className="dashboard__section-title">
            Recent transactions
          </h2>
          <Link to="/transaction-history" aria-label="See all transactions">
            See all
          </Link>
        </div>
        <RecentTransactions transactions={summary.data.recentTransactions} />
      </section>
    </>
  );
}
