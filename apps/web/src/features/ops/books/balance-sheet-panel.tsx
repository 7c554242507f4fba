import type { BalanceSheet } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useBalanceSheet } from './books-api.ts';
import { ClosedNotice, DayField, DownloadLinks, queryFieldError, ReportState, TieCheck } from './report-parts.tsx';
import { ReportTable, sectionRows, type ReportRow } from './report-table.tsx';

function rowsOf(report: BalanceSheet): ReportRow[] {
  return [
    ...sectionRows('Assets', report.assets.lines, 'Total assets', report.assets.totalCents),
    ...sectionRows('Liabilities', report.liabilities.lines, 'Total liabilities', report.liabilities.totalCents),
    ...sectionRows('Equity', report.equity.lines, 'Total equity', report.equity.totalCents),
    { kind: 'total', key: 'liabilities-and-equity', label: 'Total liabilities and equity', amounts: [report.totals.liabilitiesAndEquityCents] },
  ];
}

/** Customer deposits as the balance sheet books them against the sum of the customers' own balances, each computed its own way. */
function DepositsCheck({ deposits }: { deposits: BalanceSheet['customerDeposits'] }) {
  const booked = formatMoney(deposits.balanceSheetCents);
  const accounts = formatMoney(deposits.customerAccountsCents);
  return (
    <TieCheck
      tied={deposits.tied}
      yes={`Customer deposits tie to customer accounts: ${booked} on the balance sheet, ${accounts} in customer accounts.`}
      no={`Customer deposits do not tie to customer accounts: ${booked} on the balance sheet, ${accounts} in customer accounts. Tell the engineers at once.`}
    />
  );
}

/** The balance sheet as of a day: assets, liabilities and equity (the year's income closed into equity), which must balance. */
export function BalanceSheetPanel({ asOf, onAsOfChange }: { asOf: string; onAsOfChange: (day: string) => void }) {
  const query = { asOf };
  const report = useBalanceSheet(asOf);
  return (
    <div className="books__panel">
      <div className="books__controls">
        <DayField label="As of" value={asOf} onChange={onAsOfChange} error={queryFieldError(report.error, 'asOf')} />
      </div>
      <ReportState query={report} enabled={asOf !== ''} title="Balance sheet">
        {() =>
          report.data ? (
            <>
              <h2 className="books__report-title">Balance sheet as of {formatBankDate(report.data.asOf)}</h2>
              <ClosedNotice closed={report.data.closed} day={formatBankDate(report.data.asOf)} />
              <TieCheck
                tied={report.data.balanced}
                yes={`Assets (${formatMoney(report.data.totals.assetsCents)}) equal liabilities plus equity.`}
                no={`Assets (${formatMoney(report.data.totals.assetsCents)}) differ from liabilities plus equity (${formatMoney(report.data.totals.liabilitiesAndEquityCents)}): tell the engineers at once.`}
              />
              <DepositsCheck deposits={report.data.customerDeposits} />
              <ReportTable caption={`Balance sheet as of ${formatBankDate(report.data.asOf)}`} amountHeaders={['Balance']} rows={rowsOf(report.data)} />
              <DownloadLinks name="balance-sheet" query={query} />
            </>
          ) : null
        }
      </ReportState>
    </div>
  );
}
