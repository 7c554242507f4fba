import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { type z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { accountNumberField, createWithdrawalRequestSchema, routeNumberField } from '@strongroom/contracts/payments.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { accountOptions } from '../payment/account-options.ts';
import { amountInputProps, amountTextField } from '../payment/amount-field.ts';
import { PaymentDialogs, withdrawalResultTitle } from '../payment/payment-dialogs.tsx';
import { requiredField } from '../payment/required-field.ts';
import { paymentFieldNames, showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { SourceAccounts } from '../payment/source-accounts.tsx';
import { usePaymentSubmission } from '../payment/use-payment-submission.ts';
import { createWithdrawal } from './api/create-withdrawal.ts';
import '../payment/payment.css';

const withdrawFormSchema = createWithdrawalRequestSchema
  .omit({ amountCents: true })
  .extend({ amount: amountTextField, accountNumber: requiredField(accountNumberField), routeNumber: requiredField(routeNumberField) });

type WithdrawFormValues = z.input<typeof withdrawFormSchema>;

const fieldNames: readonly Path<WithdrawFormValues>[] = [
  'fromAccountId',
  'amount',
  'country',
  'nameOfBank',
  'accountName',
  'accountNumber',
  'stateName',
  'bankAddress',
  'routeNumber',
];

function defaultsFor(accounts: readonly Account[]): WithdrawFormValues {
  return {
    fromAccountId: accounts[0]?.id ?? '',
    amount: '',
    country: '',
    nameOfBank: '',
    accountName: '',
    accountNumber: '',
    stateName: '',
    bankAddress: '',
    routeNumber: '',
  };
}

/** /withdraw: money out to an account at another bank; all nine fields required, a code asked for first. */
export default function WithdrawPage() {
  return (
    <div className="money-page">
      <PageMeta title="Withdraw" description="Take money out to an account at another bank." noIndex />
      <header className="money-page__header">
        <h1>Withdraw</h1>
        <p>Take money out to your account at another bank. We send you a code to confirm it.</p>
      </header>
      <SourceAccounts>{(accounts) => <WithdrawForm accounts={accounts} />}</SourceAccounts>
    </div>
  );
}

function WithdrawForm({ accounts }: { accounts: readonly Account[] }) {
  const submission = usePaymentSubmission(createWithdrawal);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(withdrawFormSchema), mode: 'onTouched', defaultValues: defaultsFor(accounts) });

  const onSubmit = handleSubmit(async (values) => {
    const result = await submission.submit(
      {
        fromAccountId: values.fromAccountId,
        amountCents: values.amount,
        country: values.country,
        nameOfBank: values.nameOfBank,
        accountName: values.accountName,
        accountNumber: values.accountNumber,
        stateName: values.stateName,
        bankAddress: values.bankAddress,
        routeNumber: values.routeNumber,
      },
      { placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, paymentFieldNames) },
    );
    if (result === 'done') reset(defaultsFor(accounts));
  });

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Withdraw">
        <SelectField label="Source account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <div className="money-form__pair">
          <TextField label="Country" autoComplete="country-name" required error={errors.country?.message} {...register('country')} />
          <TextField label="State name" autoComplete="address-level1" required error={errors.stateName?.message} {...register('stateName')} />
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
          label="Route number"
          hint="The bank’s 9-digit routing number"
          inputMode="numeric"
          autoComplete="off"
          required
          error={errors.routeNumber?.message}
          {...register('routeNumber')}
        />
        <div className="money-form__actions">
          <Button type="submit" size="lg" loading={submission.isPending}>
            Withdraw
          </Button>
        </div>
      </form>
      <PaymentDialogs submission={submission} successTitle={withdrawalResultTitle} errorTitle="The withdrawal was not made" />
    </>
  );
}
