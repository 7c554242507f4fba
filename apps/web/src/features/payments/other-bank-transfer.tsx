import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Beneficiary } from '@strongroom/contracts/beneficiaries.ts';
import type { CreateTransferRequest } from '@strongroom/contracts/payments.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { PayeeCheckInput } from './api/check-payee.ts';
import type { OtherBankChecked } from '../../components/payment/other-bank-schema.ts';
import { accountLabel, accountTypeName } from '../../components/payment/account-options.ts';
import type { ConfirmRow } from '../../components/payment/confirm-payment-dialog.tsx';

export interface OtherBankTransfer {
  body: CreateTransferRequest;
  rows: ConfirmRow[];
  /** For a payee at this bank: the name to check against the number before confirming. */
  payee: PayeeCheckInput | null;
}

export interface TransferContext {
  accounts: readonly Account[];
  beneficiaries: readonly Beneficiary[];
  /** This bank's name, shown for a payee here. */
  bankName: string;
}

function amountRow(amountCents: number): ConfirmRow {
  return { label: 'Amount', value: <span className="tabular">{formatMoney(amountCents)}</span> };
}

function fromRow(fromAccountId: string, accounts: readonly Account[]): ConfirmRow {
  const from = accounts.find((account) => account.id === fromAccountId);
  return { label: 'From', value: from ? accountLabel(from) : fromAccountId };
}

/**
 * The request and the confirmation rows for what the form checked. A favourite at this bank
 * ('mybank') is paid as an `internal` transfer, any other as `external`. Answers null when the
 * favourite chosen is no longer in the list.
 */
export function otherBankTransferFor(checked: OtherBankChecked, { accounts, beneficiaries, bankName }: TransferContext): OtherBankTransfer | null {
  const base = { fromAccountId: checked.fromAccountId, amountCents: checked.amount, message: checked.message };
  if (checked.mode === 'thisBank') {
    return {
      body: { kind: 'internal', ...base, toAccountNumber: checked.toAccountNumber, accountName: checked.accountName, addToFavorites: checked.addToFavorites },
      rows: [
        fromRow(checked.fromAccountId, accounts),
        { label: 'Holder name', value: checked.accountName },
        { label: 'Account number', value: checked.toAccountNumber },
        { label: 'Bank', value: bankName },
        amountRow(checked.amount),
        { label: 'Message', value: checked.message },
        { label: 'Add to favorites', value: checked.addToFavorites ? 'Yes' : 'No' },
      ],
      payee: { accountNumber: checked.toAccountNumber, accountName: checked.accountName },
    };
  }
  if (checked.mode === 'otherBank') {
    return {
      body: {
        kind: 'external',
        ...base,
        toAccountNumber: checked.toAccountNumber,
        accountName: checked.accountName,
        routeNumber: checked.routeNumber,
        nameOfBank: checked.nameOfBank,
        nameOfCountry: checked.nameOfCountry,
        addToFavorites: checked.addToFavorites,
      },
      rows: [
        fromRow(checked.fromAccountId, accounts),
        { label: 'Holder name', value: checked.accountName },
        { label: 'Account number', value: checked.toAccountNumber },
        { label: 'Bank', value: checked.nameOfBank },
        { label: 'Routing number', value: checked.routeNumber },
        { label: 'Country', value: checked.nameOfCountry },
        amountRow(checked.amount),
        { label: 'Message', value: checked.message },
        { label: 'Add to favorites', value: checked.addToFavorites ? 'Yes' : 'No' },
      ],
      payee: null,
    };
  }
  const favourite = beneficiaries.find((beneficiary) => beneficiary.id === checked.beneficiaryId);
  if (!favourite) return null;
  const recipientRows: ConfirmRow[] = [
    fromRow(checked.fromAccountId, accounts),
    { label: 'Holder name', value: checked.accountName },
    { label: 'Account number', value: favourite.accountNumber },
    { label: 'Account type', value: accountTypeName(checked.accountType) },
  ];
  const paymentRows = [amountRow(checked.amount), { label: 'Message', value: checked.message }];
  if (favourite.bankType === 'mybank') {
    return {
      body: { kind: 'internal', ...base, toAccountNumber: favourite.accountNumber, accountName: checked.accountName, addToFavorites: false },
      rows: [...recipientRows, { label: 'Bank', value: bankName }, ...paymentRows],
      payee: { accountNumber: favourite.accountNumber, accountName: checked.accountName },
    };
  }
  return {
    body: {
      kind: 'external',
      ...base,
      toAccountNumber: favourite.accountNumber,
      accountName: checked.accountName,
      routeNumber: favourite.routeNumber,
      nameOfBank: favourite.bankName,
      nameOfCountry: favourite.nameOfCountry,
      addToFavorites: false,
    },
    rows: [
      ...recipientRows,
      { label: 'Bank', value: favourite.bankName },
      { label: 'Routing number', value: favourite.routeNumber },
      { label: 'Country', value: favourite.nameOfCountry },
      ...paymentRows,
    ],
    payee: null,
  };
}
