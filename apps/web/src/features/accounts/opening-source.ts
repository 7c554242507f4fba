import { z } from 'zod';
import type { OpenAccountRequest } from '@strongroom/contracts/account-management.ts';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { amountTextField } from '../../components/payment/amount-field.ts';
import type { SelectOption } from '../../components/ui/select-field.tsx';
import { accountLabel } from '../../components/payment/account-options.ts';

/** Where an opening deposit may come from: the customer's own open accounts and their verified banks, as one list. */
export function sourceOptions(accounts: readonly Account[], sources: readonly FundingSource[]): SelectOption[] {
  return [
    ...accounts.filter((account) => account.status === 'open').map((account) => ({ value: `account:${account.id}`, label: accountLabel(account) })),
    ...sources.map((source) => ({ value: `bank:${source.id}`, label: `${source.bankName ?? 'Other bank'} ${source.accountName} •••• ${source.last4}` })),
  ];
}

const optionalAmountField = z.string().transform((text, context) => {
  if (text.trim() === '') return 0;
  const parsed = amountTextField.safeParse(text);
  if (parsed.success) return parsed.data;
  context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Enter an amount like 12.50', input: text });
  return z.NEVER;
});

/** The form's fields: which source ("account:<id>" or "bank:<id>") and the amount as typed. */
export function openingFormSchema(product: Product, accounts: readonly Account[]) {
  const least = product.openingDepositCents;
  // With no minimum the amount may be left empty: the account opens with nothing in it.
  const amount = least === 0 ? optionalAmountField : amountTextField;
  return z.object({ source: z.string(), amount }).superRefine((values, context) => {
    if (values.amount < least) context.addIssue({ code: 'custom', path: ['amount'], message: `${product.name} opens with at least ${formatMoney(least)}` });
    if (values.amount > 0 && values.source === '')
      context.addIssue({ code: 'custom', path: ['source'], message: 'choose where the opening deposit comes from' });
    const from = values.source.startsWith('account:') ? accounts.find((account) => `account:${account.id}` === values.source) : undefined;
    if (from && values.amount > from.availableCents)
      context.addIssue({ code: 'custom', path: ['amount'], message: `more than the ${formatMoney(from.availableCents)} available in ${from.name}` });
  });
}

export type OpeningFormValues = z.input<ReturnType<typeof openingFormSchema>>;

/** The request the form's values make (the disclosure was accepted at the step before). */
export function openingRequestOf(product: Product, values: { source: string; amount: number }): OpenAccountRequest {
  const [kind, id] = values.source.split(':');
  return {
    productId: product.id,
    ...(kind === 'account' && id ? { fromAccountId: id } : {}),
    ...(kind === 'bank' && id ? { fundingSourceId: id } : {}),
    openingDepositCents: values.amount,
    acceptDisclosure: true,
  };
}
