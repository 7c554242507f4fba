import type { ReactNode } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { LoadedFundingSources } from '../funding-sources/verified-sources.tsx';
import { fundingSourceLabel } from '../funding-sources/funding-source-words.ts';
import { accountOptions } from '../../../components/payment/account-options.ts';
import { amountInputProps } from '../../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../../components/payment/available-balance.ts';
import { withdrawalResultTitle } from '../../../components/payment/payment-dialogs.tsx';
import { MoneyReviewForm, usePaymentReview } from '../../../components/payment/payment-review.tsx';
import { SourceAccounts } from '../../../components/payment/source-accounts.tsx';
import type { CreateWithdrawalRequest } from '@strongroom/contracts/payments.ts';
import { createWithdrawal } from './api/create-withdrawal.ts';
import { TypedAccountFields } from './typed-account-fields.tsx';
import {
  typedDestination,
  withdrawalFor,
  withdrawFormSchema,
  type PendingWithdrawal,
  type WithdrawChecked,
  type WithdrawFormValues,
} from './withdraw-form-schema.ts';
import { OtherBanksLink } from '../funding-sources/other-banks-link.tsx';
import '../../../components/payment/payment.css';

const fieldNames: readonly Path<WithdrawFormValues>[] = [
  'fromAccountId',
  'amount',
  'destination',
  'country',
  'nameOfBank',
  'accountName',
  'accountNumber',
  'stateName',
  'bankAddress',
  'routeNumber',
];
/** The server names the linked bank `fundingSourceId`; the form calls its choice `destination`. */
const withdrawFieldNames: Readonly<Record<string, string>> = { ...paymentFieldNames, fundingSourceId: 'destination' };

function defaultsFor(accounts: readonly Account[], sources: readonly FundingSource[]): WithdrawFormValues {
  return {
    fromAccountId: accounts[0]?.id ?? '',
    amount: '',
    // The only linked bank is the likely one; with several the customer chooses; with none, the account is typed.
    destination: sources.length === 0 ? typedDestination : sources.length === 1 ? (sources[0]?.id ?? '') : '',
    country: 'United States',
    nameOfBank: '',
    accountName: '',
    accountNumber: '',
    stateName: '',
    bankAddress: '',
    routeNumber: '',
  };
}

/**
 * /withdraw: money out to one of the customer's verified linked banks (the accounts deposits come
 * from) or to an account typed by hand; reviewed before it is confirmed, a code asked for then.
 */
export default function WithdrawPage() {
  return (
    <div className="money-page">
      <PageMeta title="Withdraw" description="Take money out to an account at another bank." noIndex />
      <header className="money-page__header">
        <h1>Withdraw</h1>
        <p>Take money out to your account at another bank in the US. You check the details, then we send you a code to confirm it.</p>
        <OtherBanksLink />
      </header>
      <SourceAccounts>{(accounts) => <LinkedBanks>{(sources) => <WithdrawForm accounts={accounts} sources={sources} />}</LinkedBanks>}</SourceAccounts>
    </div>
  );
}

/** The verified linked banks to offer; typing an account stays possible without any. */
function LinkedBanks({ children }: { children: (sources: readonly FundingSource[]) => ReactNode }) {
  return <LoadedFundingSources>{(items) => children(items.filter((source) => source.status === 'verified'))}</LoadedFundingSources>;
}

function WithdrawForm({ accounts, sources }: { accounts: readonly Account[]; sources: readonly FundingSource[] }) {
  const form = useForm<WithdrawFormValues, unknown, WithdrawChecked>({
    resolver: zodResolver(withdrawFormSchema),
    mode: 'onTouched',
    defaultValues: defaultsFor(accounts, sources),
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = form;
  const review = usePaymentReview<CreateWithdrawalRequest, PendingWithdrawal>(createWithdrawal, {
    placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, withdrawFieldNames),
    onDone: () => reset(defaultsFor(accounts, sources)),
  });
  const typing = watch('destination') === typedDestination;
  const destinationOptions = [
    ...sources.map((source) => ({ value: source.id, label: fundingSourceLabel(source) })),
    { value: typedDestination, label: 'Another account (type its details)' },
  ];

  const onSubmit = handleSubmit((values) => {
    const insufficient = moreThanAvailableMessage(accounts, values.fromAccountId, values.amount);
    if (insufficient) {
      setError('amount', { type: 'balance', message: insufficient }, { shouldFocus: true });
      return;
    }
    const amountRow = { label: 'Amount', value: <span className="tabular">{formatMoney(values.amount)}</span> };
    const withdrawal = withdrawalFor(values, accounts, sources, amountRow);
    if (!withdrawal) {
      setError('destination', { type: 'gone', message: 'This account is no longer linked. Choose another.' }, { shouldFocus: true });
      return;
    }
    review.review(withdrawal);
  });

  return (
    <MoneyReviewForm
      label="Withdraw"
      onSubmit={onSubmit}
      review={review}
      payment={review.pending}
      title="Confirm the withdrawal"
      successTitle={withdrawalResultTitle}
      errorTitle="The withdrawal was not made"
    >
      <SelectField label="Source account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
      <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
      <SelectField
        label="To"
        hint={
          sources.length > 0
            ? 'Your verified account at another bank, or another account'
            : 'Link your other bank under “Your other banks” to choose it here next time'
        }
        options={destinationOptions}
        placeholder={sources.length > 1 ? 'Choose an account' : undefined}
        required
        error={errors.destination?.message}
        {...register('destination')}
      />
      {typing ? <TypedAccountFields form={form} /> : null}
    </MoneyReviewForm>
  );
}
