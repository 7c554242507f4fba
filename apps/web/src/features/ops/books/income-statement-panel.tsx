import type { IncomeStatement } from '@strongroom/contracts/books.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useIncomeStatement } from './books-api.ts';
import { ClosedNotice, DayField, DownloadLinks, queryFieldError, ReportState } from './report-parts.tsx';
import { ReportTable, sectionRows, type ReportRow } from './report-table.tsx';

function rowsOf(report: IncomeStatement): ReportRow[] {
  return [
    ...sectionRows('Income', report.income.lines, 'Total income', report.income.totalCents),
    ...sectionRows('Expenses', report.expenses.lines, 'Total expenses', report.expenses.totalCents),
    { kind: 'total', key: 'net-income', label: report.totals.netIncomeCents < 0 ? 'Net loss' : 'Net income', amounts: [report.totals.netIncomeCents] },
  ];
}

export interface IncomeRange {
  from: string;
  to: string;
}

/** What the bank earned and spent over a range of days: income, expenses, net income. */
export function IncomeStatementPanel({ range, onRangeChange }: { range: IncomeRange; onRangeChange: (range: IncomeRange) => void }) {
  const enabled = range.from !== '' && range.to !== '';
  // The server says "from after to" too; saying it here spares a request that can only be refused.
  const fromAfterTo = enabled && range.from > range.to;
  const report = useIncomeStatement(range, enabled && !fromAfterTo);
  const fromError = fromAfterTo ? 'choose a first day on or before the last day' : queryFieldError(report.error, 'from');
  return (
    <div className="books__panel">
      <div className="books__controls">
        <DayField label="From" value={range.from} onChange={(from) => onRangeChange({ ...range, from })} error={fromError} />
        <DayField label="To" value={range.to} onChange={(to) => onRangeChange({ ...range, to })} error={queryFieldError(report.error, 'to')} />
      </div>
      <ReportState query={report} enabled={enabled && !fromAfterTo} title="Income statement">
        {() =>
          report.data ? (
            <>
              <h2 className="books__report-title">
                Income statement, {formatBankDate(report.data.from)} to {formatBankDate(report.data.to)}
              </h2>
              <ClosedNotice closed={report.data.closed} day={formatBankDate(report.data.to)} />
              <ReportTable
                caption={`Income statement, ${formatBankDate(report.data.from)} to ${formatBankDate(report.data.to)}`}
                amountHeaders={['Amount']}
                rows={rowsOf(report.data)}
              />
              <DownloadLinks name="income-statement" query={range} />
            </>
          ) : null
        }
      </ReportState>
    </div>
  );
}
