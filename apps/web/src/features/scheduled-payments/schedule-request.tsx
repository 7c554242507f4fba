import type { Account } from '@strongroom/contracts/accounts.ts';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { CreateTransferRequest } from '@strongroom/contracts/payments.ts';
import { accountLabel } from '../../components/payment/account-options.ts';
import type { ConfirmRow } from '../../components/payment/confirm-payment-dialog.tsx';
import type { OtherBankChecked } from '../../components/payment/other-bank-schema.ts';
import { billPayeeLabel } from './payee-fields.tsx';
import type { ScheduleChecked } from './schedule-form-schema.ts';
import type { ReviewedSchedule } from './use-schedule-submission.ts';
import { whenSummary } from './schedule-words.ts';
import { DateList, previewDates } from './schedule-preview.tsx';

export interface PaymentContext {
  accounts: readonly Account[];
  billPayees: readonly BillPayee[];
  bankName: string;
}

function accountRow(label: string, id: string, accounts: readonly Account[]): ConfirmRow {
  const account = accounts.find((candidate) => candidate.id === id);
  return { label, value: account ? accountLabel(account) : id };
}

/** The `POST /transfers` body a schedule holds, and the review's rows for it; a person's comes from the transfer form's own builder. */
function paymentOf(
  checked: ScheduleChecked,
  recipient: OtherBankChecked | null,
  context: PaymentContext,
): { body: CreateTransferRequest; rows: ConfirmRow[] } | null {
  const base = { fromAccountId: checked.fromAccountId, amountCents: checked.amountCents, message: checked.message };
  const amountRow = { label: 'Amount', value: <span className="tabular">{formatMoney(checked.amountCents)}</span> };
  const messageRows = checked.message === '' ? [] : [{ label: 'Message', value: checked.message }];
  const from = accountRow('From', checked.fromAccountId, context.accounts);
  if (checked.kind === 'own') {
    return {
      body: { kind: 'own', ...base, toAccountId: checked.toAccountId },
      rows: [from, accountRow('To', checked.toAccountId, context.accounts), amountRow, ...messageRows],
    };
  }
  if (checked.kind === 'bill') {
    const payee = context.billPayees.find((candidate) => candidate.id === checked.billPayeeId);
    return {
      body: { kind: 'bill', ...base, billPayeeId: checked.billPayeeId },
      rows: [from, { label: 'To', value: payee ? billPayeeLabel(payee) : checked.billPayeeId }, amountRow, ...messageRows],
    };
  }
  // A person is typed on the transfer form's own fields (never a favourite here): at this bank, or another.
  if (recipient === null || recipient.mode === 'favourite') return null;
  const person = { ...base, toAccountNumber: recipient.toAccountNumber, accountName: recipient.accountName, addToFavorites: false };
  const personRows = [from, { label: 'Holder name', value: recipient.accountName }, { label: 'Account number', value: recipient.toAccountNumber }];
  if (recipient.mode === 'thisBank') {
    return { body: { kind: 'internal', ...person }, rows: [...personRows, { label: 'Bank', value: context.bankName }, amountRow, ...messageRows] };
  }
  const bank = { routeNumber: recipient.routeNumber, nameOfBank: recipient.nameOfBank, nameOfCountry: recipient.nameOfCountry };
  const bankRows = [
    { label: 'Bank', value: bank.nameOfBank },
    { label: 'Routing number', value: bank.routeNumber },
    { label: 'Country', value: bank.nameOfCountry },
  ];
  return { body: { kind: 'external', ...person, ...bank }, rows: [...personRows, ...bankRows, amountRow, ...messageRows] };
}

/**
 * What the review shows and Confirm sends: the payment, its rule and its first dates on the bank's
 * calendar (when it has loaded; the confirmation lists the dates the bank worked out).
 */
export function reviewedScheduleOf(
  checked: ScheduleChecked,
  recipient: OtherBankChecked | null,
  context: PaymentContext,
  businessDays: readonly string[] | undefined,
): ReviewedSchedule | null {
  const payment = paymentOf(checked, recipient, context);
  if (payment === null) return null;
  const dates = businessDays ? previewDates(checked.when, payment.body.kind, businessDays) : [];
  const dateRows = dates.length === 0 ? [] : [{ label: 'Next payments', value: <DateList dates={dates} dayOfMonth={checked.when.dayOfMonth} /> }];
  return { body: { payment: payment.body, ...checked.when }, rows: [...payment.rows, { label: 'When', value: whenSummary(checked.when) }, ...dateRows] };
}
