import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FileDown } from 'lucide-react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { statementMaxDays } from '@strongroom/contracts/transactions.ts';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { accountStatementUrl, type StatementFormat } from './api/account-statement.ts';
import { useStatementMonths } from './api/statement-months.ts';
import { daysInPeriod, isoMonth, monthChoices, monthPeriod, type StatementPeriod } from './statement-period.ts';
import './statement-downloads.css';

/** The period picker's last choice opens two date fields. */
const dateRangeChoice = 'dates';

const formats: readonly { format: StatementFormat; label: string }[] = [
  { format: 'pdf', label: 'Download PDF' },
  { format: 'csv', label: 'Download CSV' },
  { format: 'ofx', label: 'Download OFX' },
];

function accountLabel(account: Account): string {
  return `${account.name} (${account.number})`;
}

/** The period chosen, or why there is none yet. */
function periodOf(choice: string, range: StatementPeriod, today: Date): StatementPeriod | string {
  if (choice !== dateRangeChoice) return monthPeriod(choice, today);
  if (range.from === '' || range.to === '') return 'Choose both dates to download a statement.';
  if (range.from > range.to) return 'The end date must be on or after the start date.';
  if (daysInPeriod(range) > statementMaxDays) return `A statement covers at most ${statementMaxDays} days; choose a shorter period.`;
  return range;
}

/**
 * Statements of one account for a month (this month by default) or any date range, as PDF, CSV or
 * OFX (Quicken, GnuCash, accounting software). Plain download links: the server builds the file.
 */
export function StatementDownloads({ accounts }: { accounts: readonly Account[] }) {
  const [today] = useState(() => new Date());
  // The account named in the address (the dashboard's Statements link), else the first account.
  const [searchParams] = useSearchParams();
  const [accountId, setAccountId] = useState(() => searchParams.get('account') ?? '');
  const [chosen, setChosen] = useState<string | null>(null);
  const [range, setRange] = useState<StatementPeriod>({ from: '', to: '' });
  const account = accounts.find((item) => item.id === accountId) ?? accounts[0];
  // The months from the account's opening to this one (the server's); this month alone until they
  // come, or if they cannot: never a month before the account existed.
  const statementMonths = useStatementMonths(account?.id);
  const months = statementMonths.data?.months ?? [isoMonth(today)];
  // A month another account offered, and this one did not exist in, gives way to this one's newest.
  const choice = chosen !== null && (chosen === dateRangeChoice || months.includes(chosen)) ? chosen : (months[0] ?? isoMonth(today));
  const period = periodOf(choice, range, today);

  return (
    <Card as="section" className="history-statements" aria-labelledby="statements-title">
      <h2 id="statements-title" className="history-statements__title">
        Statements
      </h2>
      <p className="history-statements__intro">Completed transactions with the running balance, for your records, your landlord or your accounting software.</p>
      {account ? (
        <>
          <div className="history-statements__fields">
            <SelectField
              label="Statement account"
              options={accounts.map((item) => ({ value: item.id, label: accountLabel(item) }))}
              value={account.id}
              onChange={(event) => setAccountId(event.target.value)}
            />
            <SelectField
              label="Period"
              options={[...monthChoices(months), { value: dateRangeChoice, label: 'Choose dates…' }]}
              value={choice}
              onChange={(event) => setChosen(event.target.value)}
            />
            {choice === dateRangeChoice ? (
              <>
                <TextField label="Statement from" type="date" value={range.from} onChange={(event) => setRange({ ...range, from: event.target.value })} />
                <TextField label="Statement to" type="date" value={range.to} onChange={(event) => setRange({ ...range, to: event.target.value })} />
              </>
            ) : null}
          </div>
          {typeof period === 'string' ? (
            <p className="history-statements__hint" role="status">
              {period}
            </p>
          ) : (
            <p className="history-statements__hint">
              From {period.from} to {period.to}. OFX opens in Quicken, GnuCash and most accounting software.
            </p>
          )}
          <ul className="history-statements__downloads">
            {formats.map(({ format, label }) => (
              <li key={format}>
                {typeof period === 'string' ? (
                  // No period, no file: the button says so by being unavailable, the hint above says why.
                  <Button variant="secondary" disabled>
                    <FileDown aria-hidden="true" size={18} />
                    {label}
                  </Button>
                ) : (
                  <a className={buttonClassName({ variant: 'secondary' })} href={accountStatementUrl(account.id, period, format)} download>
                    <FileDown aria-hidden="true" size={18} />
                    {label}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="history-statements__hint">Your accounts open once your identity has been checked; their statements are here from then on.</p>
      )}
    </Card>
  );
}
