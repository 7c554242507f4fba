import { useState, type ReactNode } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { Landmark } from 'lucide-react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { countryNames } from '@strongroom/contracts/countries.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { usStates } from '@strongroom/contracts/us-states.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { useFundingSources } from '../funding-sources/api/get-funding-sources.ts';
import { fundingSourceLabel } from '../funding-sources/funding-source-words.ts';
import { accountOptions } from '../../../components/payment/account-options.ts';
import { amountInputProps } from '../../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../../components/payment/available-balance.ts';
import { ConfirmPaymentDialog } from '../../../components/payment/confirm-payment-dialog.tsx';
import { PaymentDialogs, withdrawalResultTitle } from '../../../components/payment/payment-dialogs.tsx';
import { SourceAccounts } from '../../../components/payment/source-accounts.tsx';
import { usePaymentSubmission } from '../../../components/payment/use-payment-submission.ts';
import { createWithdrawal } from './api/create-withdrawal.ts';
import { typedDestination, withdrawalFor, withdrawFormSchema, type PendingWithdrawal, type WithdrawFormValues } from './withdraw-form-schema.ts';
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
const countryOptions = countryNames.map((name) => ({ value: name, label: name }));
const stateOptions = usStates.map((state) => ({ value: state.name, label: state.name }));
/** The country whose states the form lists; elsewhere the state is typed. */
const listedStatesCountry = 'United States';

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
        <Link to="/deposit/sources" className="money-page__link">
          <Landmark aria-hidden="true" size={18} />
          Your other banks
        </Link>
      </header>
      <SourceAccounts>{(accounts) => <LinkedBanks>{(sources) => <WithdrawForm accounts={accounts} sources={sources} />}</LinkedBanks>}</SourceAccounts>
    </div>
  );
}

/** The verified linked banks to offer; typing an account stays possible without any. */
function LinkedBanks({ children }: { children: (sources: readonly FundingSource[]) => ReactNode }) {
  const sources = useFundingSources();
  if (sources.isPending) {
    return (
      <p className="money-page__loading" aria-busy="true">
        <Spinner size="sm" /> Loading your other banks…
      </p>
    );
  }
  if (sources.isError) return <LoadFailed title="We could not load your other banks" headingLevel={2} query={sources} />;
  return children(sources.data.items.filter((source) => source.status === 'verified'));
}

function WithdrawForm({ accounts, sources }: { accounts: readonly Account[]; sources: readonly FundingSource[] }) {
  const submission = usePaymentSubmission(createWithdrawal);
  const [pending, setPending] = useState<PendingWithdrawal | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(withdrawFormSchema), mode: 'onTouched', defaultValues: defaultsFor(accounts, sources) });
  const typing = watch('destination') === typedDestination;
  const statesListed = watch('country') === listedStatesCountry;
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
    setPending(withdrawal);
  });

  async function confirm(withdrawal: PendingWithdrawal) {
    const result = await submission.submit(withdrawal.body, {
      placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, withdrawFieldNames),
    });
    if (result === 'cancelled') return;
    setPending(null);
    if (result === 'done') reset(defaultsFor(accounts, sources));
  }

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Withdraw">
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
        {typing ? (
          <>
            <div className="money-form__pair">
              <SelectField label="Country" options={countryOptions} required error={errors.country?.message} {...register('country')} />
              {statesListed ? (
                <SelectField
                  label="State name"
                  options={stateOptions}
                  placeholder="Choose a state"
                  required
                  error={errors.stateName?.message}
                  {...register('stateName')}
                />
              ) : (
                <TextField label="State name" autoComplete="off" required error={errors.stateName?.message} {...register('stateName')} />
              )}
            </div>
            <div className="money-form__pair">
              <TextField label="Bank name" autoComplete="off" required error={errors.nameOfBank?.message} {...register('nameOfBank')} />
              <TextField label="Bank address" autoComplete="off" required error={errors.bankAddress?.message} {...register('bankAddress')} />
            </div>
            <div className="money-form__pair">
              <TextField label="Account name" autoComplete="name" required error={errors.accountName?.message} {...register('accountName')} />
              <TextField
                label="Account number"
                inputMode="numeric"
                autoComplete="off"
                required
                error={errors.accountNumber?.message}
                {...register('accountNumber')}
              />
            </div>
            <TextField
              label="Routing number"
              hint="The bank’s 9-digit US routing number. International transfers are not offered yet."
              inputMode="numeric"
              autoComplete="off"
              required
              error={errors.routeNumber?.message}
              {...register('routeNumber')}
            />
          </>
        ) : null}
        <div className="money-form__actions">
          <Button type="submit" size="lg">
            Continue
          </Button>
        </div>
      </form>
      <ConfirmPaymentDialog
        open={pending !== null}
        title="Confirm the withdrawal"
        rows={pending?.rows ?? []}
        confirming={submission.isPending}
        onModify={() => setPending(null)}
        onConfirm={() => {
          if (pending) void confirm(pending);
        }}
      />
      <PaymentDialogs submission={submission} successTitle={withdrawalResultTitle} errorTitle="The withdrawal was not made" />
    </>
  );
}
