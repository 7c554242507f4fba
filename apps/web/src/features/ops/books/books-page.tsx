import { useState } from 'react';
import { Link } from 'react-router';
import type { BooksDaysResponse } from '@strongroom/contracts/books.ts';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Tabs } from '../../../components/ui/tabs.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useBooksDays } from './books-api.ts';
import { BalanceSheetPanel } from './balance-sheet-panel.tsx';
import { IncomeStatementPanel, type IncomeRange } from './income-statement-panel.tsx';
import { TrialBalancePanel } from './trial-balance-panel.tsx';
import './books.css';

/** "Books closed through Nov 27, 2026; open day Nov 28, 2026": which figures are final, and the earliest day a posting may still be booked on. */
function closedDaysText(days: BooksDaysResponse): string {
  const open = `open day ${formatBankDate(days.openDay)}`;
  return days.closedThrough ? `Books closed through ${formatBankDate(days.closedThrough)}; ${open}` : `No day is closed yet; ${open}`;
}

/** The reports' days: the last closed day (final figures), or the open day when none is closed yet. */
function Reports({ days }: { days: BooksDaysResponse }) {
  const defaultDay = days.closedThrough ?? days.openDay;
  const [asOf, setAsOf] = useState(defaultDay);
  // The income statement starts with the month of that day, through that day.
  const [range, setRange] = useState<IncomeRange>({ from: `${defaultDay.slice(0, 8)}01`, to: defaultDay });
  return (
    <Tabs
      label="Reports"
      items={[
        { id: 'trial-balance', label: 'Trial balance', panel: <TrialBalancePanel asOf={asOf} onAsOfChange={setAsOf} /> },
        { id: 'balance-sheet', label: 'Balance sheet', panel: <BalanceSheetPanel asOf={asOf} onAsOfChange={setAsOf} /> },
        { id: 'income-statement', label: 'Income statement', panel: <IncomeStatementPanel range={range} onRangeChange={setRange} /> },
      ]}
    />
  );
}

/**
 * `/ops/books` (`books.read`): the bank's own books (issue 35): the trial balance, balance sheet and
 * income statement of any day, as CSV and PDF too, and which days are closed (docs/books.md).
 */
export default function BooksPage() {
  const days = useBooksDays();
  return (
    <section aria-labelledby="books-title" className="ops-page books">
      <h1 id="books-title">Books</h1>
      <p>
        The general ledger&rsquo;s reports. A closed day&rsquo;s figures never change; corrections are{' '}
        <Link to="/ops/books/adjustments">adjusting entries</Link> booked on the open day.
      </p>
      {days.isPending ? <LoadingLine>Loading the closed days…</LoadingLine> : null}
      {days.isError ? <LoadFailed title="The closed days could not be loaded" query={days} /> : null}
      {days.data ? (
        <>
          <p className="books__status">{closedDaysText(days.data)}</p>
          <Reports days={days.data} />
        </>
      ) : null}
    </section>
  );
}
