import type { Account } from '@strongroom/contracts/accounts.ts';
import type { SelectOption } from '../ui/select-field.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';

const accountTypeNames = { checking: 'Checking', savings: 'Savings' } as const;

export function accountTypeName(type: Account['type']): string {
  return accountTypeNames[type];
}

/** "Easy Checking 6043797155 ($4,250.00 available)": which account, and what it can pay. */
export function accountLabel(account: Account): string {
  return `${account.name} ${account.number} (${formatMoney(account.availableCents)} available)`;
}

export function accountOptions(accounts: readonly Account[]): SelectOption[] {
  return accounts.map((account) => ({ value: account.id, label: accountLabel(account) }));
}
