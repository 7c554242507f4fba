import { z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { typedWithdrawalAccountFields, type CreateWithdrawalRequest } from '@strongroom/contracts/payments.ts';
import { fundingSourceLabel } from '../funding-sources/funding-source-words.ts';
import { accountLabel } from '../../../components/payment/account-options.ts';
import { amountTextField } from '../../../components/payment/amount-field.ts';
import type { ConfirmRow } from '../../../components/payment/confirm-payment-dialog.tsx';
import { requiredField } from '../../../components/payment/required-field.ts';

/** The "To" choice that opens the fields of an account typed by hand; any other value is a linked bank's id. */
export const typedDestination = 'typed';

/** The typed account's fields, each checked as the server checks it; an empty box says 'field should not be empty'. */
const typedFields = {
  ...typedWithdrawalAccountFields,
  accountNumber: requiredField(typedWithdrawalAccountFields.accountNumber),
  routeNumber: requiredField(typedWithdrawalAccountFields.routeNumber),
};
export const typedFieldNames = Object.keys(typedFields) as (keyof typeof typedFields)[];

/**
 * The withdraw form: from an account, an amount, and where to. A linked bank needs nothing more;
 * "Another account" asks the seed's seven fields, checked only then (decision 060).
 */
export const withdrawFormSchema = z
  .object({
    fromAccountId: z.uuid({ error: validationMessages.required }),
    amount: amountTextField,
    destination: z.string().min(1, validationMessages.required),
    country: z.string(),
    nameOfBank: z.string(),
    accountName: z.string(),
    accountNumber: z.string(),
    stateName: z.string(),
    bankAddress: z.string(),
    routeNumber: z.string(),
  })
  .superRefine(
    (values, context) => {
      if (values.destination !== typedDestination) return;
      for (const name of typedFieldNames) {
        const result = typedFields[name].safeParse(values[name]);
        if (!result.success) context.addIssue({ code: 'custom', path: [name], message: result.error.issues[0]?.message ?? validationMessages.required });
      }
    },
    // Also while the amount is wrong: every field's message at once, not one round after another.
    { when: () => true },
  );

export type WithdrawFormValues = z.input<typeof withdrawFormSchema>;
export type WithdrawChecked = z.output<typeof withdrawFormSchema>;

export interface PendingWithdrawal {
  body: CreateWithdrawalRequest;
  rows: ConfirmRow[];
}

/** The request and the review's rows for what the form checked; null when the linked bank chosen is no longer listed. */
export function withdrawalFor(
  values: WithdrawChecked,
  accounts: readonly Account[],
  sources: readonly FundingSource[],
  amountRow: ConfirmRow,
): PendingWithdrawal | null {
  const from = accounts.find((account) => account.id === values.fromAccountId);
  const fromRow: ConfirmRow = { label: 'From', value: from ? accountLabel(from) : values.fromAccountId };
  const base = { fromAccountId: values.fromAccountId, amountCents: values.amount };
  if (values.destination !== typedDestination) {
    const source = sources.find((candidate) => candidate.id === values.destination);
    if (!source) return null;
    return {
      body: { ...base, fundingSourceId: source.id },
      rows: [fromRow, { label: 'To', value: fundingSourceLabel(source) }, { label: 'Routing number', value: source.routeNumber }, amountRow],
    };
  }
  const typed = {
    country: values.country.trim(),
    nameOfBank: values.nameOfBank.trim(),
    accountName: values.accountName.trim(),
    accountNumber: values.accountNumber.trim(),
    stateName: values.stateName.trim(),
    bankAddress: values.bankAddress.trim(),
    routeNumber: values.routeNumber.trim(),
  };
  return {
    body: { ...base, ...typed },
    rows: [
      fromRow,
      { label: 'Account name', value: typed.accountName },
      { label: 'Account number', value: typed.accountNumber },
      { label: 'Bank', value: `${typed.nameOfBank}, ${typed.bankAddress}` },
      { label: 'Routing number', value: typed.routeNumber },
      { label: 'State and country', value: `${typed.stateName}, ${typed.country}` },
      amountRow,
    ],
  };
}
