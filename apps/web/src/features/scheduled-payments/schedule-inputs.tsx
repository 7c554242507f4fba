import type { ReactNode } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import type { BankToday } from '@strongroom/contracts/calendar.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { SourceAccounts } from '../../components/payment/source-accounts.tsx';
import { useBankToday, useBillPayees } from './api/scheduled-payments.ts';

export interface ScheduleInputs {
  accounts: readonly Account[];
  billPayees: readonly BillPayee[];
  today: BankToday;
}

/** What the scheduling form starts from: the accounts, the bill payees and the bank's date; each loading or failing says so. */
export function WithScheduleInputs({ children }: { children: (inputs: ScheduleInputs) => ReactNode }) {
  const today = useBankToday();
  const billPayees = useBillPayees();
  return (
    <SourceAccounts>
      {(accounts) => {
        if (today.isPending || billPayees.isPending) return <LoadingLine className="money-page__loading">Loading the bank’s calendar…</LoadingLine>;
        if (today.isError) return <LoadFailed title="We could not load the bank’s calendar" headingLevel={2} query={today} />;
        if (billPayees.isError) return <LoadFailed title="We could not load your bill payees" headingLevel={2} query={billPayees} />;
        return children({ accounts, billPayees: billPayees.data.items, today: today.data });
      }}
    </SourceAccounts>
  );
}
