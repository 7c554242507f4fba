import { FileDown } from 'lucide-react';
import { percentOfBps, type MonthlyStatement, type MonthlyStatementFormat } from '@strongroom/contracts/monthly-statements.ts';
import { buttonClassName } from '../../components/ui/button.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { monthlyStatementUrl } from './api/monthly-statements.ts';
import { monthChoices } from './statement-period.ts';

const formats: readonly { format: MonthlyStatementFormat; label: string }[] = [
  { format: 'pdf', label: 'PDF' },
  { format: 'csv', label: 'CSV' },
  { format: 'ofx', label: 'OFX' },
];

/** "November 2026": a cycle is a calendar month, named by its last day. */
export function statementMonthName(statement: Pick<MonthlyStatement, 'periodEnd'>): string {
  return monthChoices([statement.periodEnd.slice(0, 7)])[0]?.label ?? statement.periodEnd;
}

/**
 * An account's monthly statements, newest first: each month's period, closing balance, interest,
 * fees and APY earned, and its files. One column of cards, so it reads the same at 390 px.
 */
export function MonthlyStatementList({ accountId, statements }: { accountId: string; statements: readonly MonthlyStatement[] }) {
  return (
    <ul className="monthly-statements__list">
      {statements.map((statement) => {
        const month = statementMonthName(statement);
        const titleId = `monthly-statement-${statement.id}`;
        return (
          <li key={statement.id} className="monthly-statements__item" aria-labelledby={titleId}>
            <h3 id={titleId} className="monthly-statements__month">
              {month}
            </h3>
            <p className="monthly-statements__period">
              {statement.periodStart} to {statement.periodEnd}
            </p>
            <FactList className="monthly-statements__facts">
              <FactRow term="Closing balance">
                <MoneyAmount cents={statement.closingBalanceCents} />
              </FactRow>
              <FactRow term="Interest earned">
                <MoneyAmount cents={statement.interestCents} />
              </FactRow>
              <FactRow term="Fees">
                <MoneyAmount cents={statement.feesCents} />
              </FactRow>
              <FactRow term="APY earned">{percentOfBps(statement.apyEarnedBps)}</FactRow>
            </FactList>
            {/* Which waiver the month met, or why the fee was charged (Regulation DD; issue 32 item 4). */}
            {statement.feeNote ? <p className="monthly-statements__fee-note">{statement.feeNote}</p> : null}
            <ul className="monthly-statements__downloads" aria-label={`Download the ${month} statement`}>
              {formats.map(({ format, label }) => (
                <li key={format}>
                  <a
                    className={buttonClassName({ variant: 'secondary' })}
                    href={monthlyStatementUrl(accountId, statement.id, format)}
                    download
                    aria-label={`Download the ${month} statement as ${label}`}
                  >
                    <FileDown aria-hidden="true" size={18} />
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
