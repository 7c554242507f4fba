import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { noMonthlyStatementsText } from '@strongroom/contracts/monthly-statements.ts';
import { Card } from '../../components/ui/card.tsx';
import { LoadFailed, type RetryableQuery } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { useMonthlyStatements } from './api/monthly-statements.ts';
import { MonthlyStatementList } from './monthly-statement-list.tsx';
import './monthly-statements.css';

/** The accounts as History asked for them: the section waits for them, and says if they could not be read. */
type AccountsQuery = RetryableQuery & { data: readonly Account[] | undefined; isPending: boolean; isError: boolean };

function MonthlyStatementsOf({ account }: { account: Account }) {
  const statements = useMonthlyStatements(account.id);
  if (statements.isPending) return <LoadingLine>Loading your monthly statements…</LoadingLine>;
  if (statements.isError) return <LoadFailed title="We could not load your monthly statements" query={statements} headingLevel={3} />;
  if (statements.data.items.length === 0) return <p className="monthly-statements__empty">{noMonthlyStatementsText}.</p>;
  return <MonthlyStatementList accountId={account.id} statements={statements.data.items} />;
}

function MonthlyStatementsBody({ accountsQuery }: { accountsQuery: AccountsQuery }) {
  // A "Your statement is ready" notification names its account in the address.
  const [searchParams] = useSearchParams();
  const [accountId, setAccountId] = useState(() => searchParams.get('statementAccount') ?? '');
  const accounts = accountsQuery.data ?? [];
  const account = accounts.find((item) => item.id === accountId) ?? accounts[0];
  if (account) {
    return (
      <>
        <SelectField
          label="Monthly statements of"
          options={accounts.map((item) => ({ value: item.id, label: `${item.name} (${item.number})${item.status === 'closed' ? ', closed' : ''}` }))}
          value={account.id}
          onChange={(event) => setAccountId(event.target.value)}
        />
        <MonthlyStatementsOf account={account} />
      </>
    );
  }
  if (accountsQuery.isPending) return <LoadingLine>Loading your accounts…</LoadingLine>;
  if (accountsQuery.isError) return <LoadFailed title="We could not load your accounts" query={accountsQuery} headingLevel={3} />;
  return <p className="monthly-statements__empty">Your accounts open once your identity has been checked; their monthly statements are here from then on.</p>;
}

/**
 * History's monthly statements (issue 32 item 6): one account at a time (closed ones too), by
 * month, newest first, each with its figures and its PDF, CSV and OFX files.
 */
export function MonthlyStatements({ accountsQuery }: { accountsQuery: AccountsQuery }) {
  return (
    <Card as="section" className="monthly-statements" aria-labelledby="monthly-statements-title">
      <h2 id="monthly-statements-title" className="monthly-statements__title">
        Monthly statements
      </h2>
      <p className="monthly-statements__intro">
        At the end of each month every account gets its statement: the balances, every completed transaction, the interest earned and the fees charged.
      </p>
      <MonthlyStatementsBody accountsQuery={accountsQuery} />
    </Card>
  );
}
