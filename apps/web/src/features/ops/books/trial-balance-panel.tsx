import type { TrialBalance } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useTrialBalance } from './books-api.ts';
import { ClosedNotice, DayField, DownloadLinks, queryFieldError, ReportState, TieCheck } from './report-parts.tsx';
import { ReportTable, type ReportRow } from './report-table.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';

function rowsOf(report: TrialBalance): ReportRow[] {
  return [
    ...report.lines.map((line): ReportRow => ({
      kind: 'line',
      key: line.account,
      account: line.account,
      name: line.name,
      amounts: [line.debitCents, line.creditCents],
    })),
    { kind: 'total', key: 'totals', label: 'Totals', amounts: [report.totals.debitCents, report.totals.creditCents] },
  ];
}

/** The trial balance as of a day: each general-ledger account's net balance on its side, and the two totals, which must be equal. */
export function TrialBalancePanel({ asOf, onAsOfChange }: { asOf: string; onAsOfChange: (day: string) => void }) {
  const query = { asOf };
  const report = useTrialBalance(asOf);
  return (
    <div className="books__panel">
      <div className="books__controls">
        <DayField label="As of" value={asOf} onChange={onAsOfChange} error={queryFieldError(report.error, 'asOf')} />
      </div>
      <ReportState query={report} enabled={asOf !== ''} title="Trial balance">
        {() =>
          report.data ? (
            <>
              <h2 className="books__report-title">Trial balance as of {formatBankDate(report.data.asOf)}</h2>
              <ClosedNotice closed={report.data.closed} day={formatBankDate(report.data.asOf)} />
              <TieCheck
                tied={report.data.balanced}
                yes={`Debits equal credits: ${formatMoney(report.data.totals.debitCents)} on each side.`}
                no={`Debits (${formatMoney(report.data.totals.debitCents)}) and credits (${formatMoney(report.data.totals.creditCents)}) differ: tell the engineers at once.`}
              />
              <ReportTable caption={`Trial balance as of ${formatBankDate(report.data.asOf)}`} amountHeaders={['Debit', 'Credit']} rows={rowsOf(report.data)} />
              <DownloadLinks name="trial-balance" query={query} />
            </>
          ) : null
        }
      </ReportState>
    </div>
  );
}
