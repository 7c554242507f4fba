import type { ReactNode } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { NoAccountNotice } from '../no-account-notice.tsx';
import { LoadFailed } from '../ui/load-failed.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import './payment.css';
import { LoadingLine } from '../ui/loading-line.tsx';

export interface SourceAccountsProps {
  /** The form, once the customer's accounts are known and there is at least one. */
  children: (accounts: readonly Account[]) => ReactNode;
}

/**
 * Money screens start from the customer's accounts: while they load, if they cannot be loaded, or
 * when there are none (usually while the identity is checked: `NoAccountNotice` says why), this says
 * so instead of showing a form that could not be sent.
 */
export function SourceAccounts({ children }: SourceAccountsProps) {
  const accounts = useAccounts();
  if (accounts.isPending) {
    return <LoadingLine className="money-page__loading">Loading your accounts…</LoadingLine>;
  }
  if (accounts.isError) {
    return <LoadFailed title="We could not load your accounts" headingLevel={2} query={accounts} />;
  }
  if (accounts.data.length === 0) {
    return <NoAccountNotice />;
  }
  return children(accounts.data);
}
