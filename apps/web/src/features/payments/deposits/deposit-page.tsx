import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { createDepositRequestSchema } from '@strongroom/contracts/payments.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { accountOptions, accountTypeName } from '../payment/account-options.ts';
import { amountInputProps, amountTextField } from '../payment/amount-field.ts';
import { PaymentDialogs } from '../payment/payment-dialogs.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { SourceAccounts } from '../payment/source-accounts.tsx';
import { usePaymentSubmission } from '../payment/use-payment-submission.ts';
import { createDeposit } from './api/create-deposit.ts';
import '../payment/payment.css';

const depositFormSchema = createDepositRequestSchema.omit({ amountCents: true }).extend({ amount: amountTextField });

type DepositFormValues = z.input<typeof depositFormSchema>;

const fieldNames: readonly Path<DepositFormValues>[] = ['accountId', 'amount', 'reason'];

/** /deposit (seed: the first account preselected, its type and number shown, amount and reason required). */
export default function DepositPage() {
  return (
    <div className="money-page">
      <PageMeta title="Deposit" description="Pay money into your account." noIndex />
      <header className="money-page__header">
        <h1>Deposit</h1>
        <p>Pay money into one of your accounts.</p>
      </header>
      <SourceAccounts>{(accounts) => <DepositForm accounts={accounts} />}</SourceAccounts>
    </div>
  );
}

function DepositForm({ accounts }: { accounts: readonly Account[] }) {
  const submission = usePaymentSubmission(createDeposit);
  const defaults: DepositFormValues = { accountId: accounts[0]?.id ?? '', amount: '', reason: '' };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(depositFormSchema), mode: 'onTouched', defaultValues: defaults });
  const accountId = watch('accountId');
  const account = accounts.find((candidate) => candidate.id === accountId);

  const onSubmit = handleSubmit(async (values) => {
    const result = await submission.submit(
      { accountId: values.accountId, amountCents: values.amount, reason: values.reason },
      { placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, paymentFieldNames) },
    );
    // The next deposit most likely goes to the same account: keep it chosen, clear the rest.
    if (result === 'done') reset({ ...defaults, accountId: values.accountId });
  });

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Deposit">
        {accounts.length > 1 ? (
          <SelectField label="Account" options={accountOptions(accounts)} required error={errors.accountId?.message} {...register('accountId')} />
        ) : null}
        <div className="money-form__pair">
          <TextField label="Account type" readOnly value={account ? accountTypeName(account.type) : ''} />
          <TextField label="Account number" readOnly value={account?.number ?? ''} />
        </div>
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <TextField label="Reason" required maxLength={140} error={errors.reason?.message} {...register('reason')} />
        <div className="money-form__actions">
          <Button type="submit" size="lg" loading={submission.isPending}>
            Deposit
          </Button>
        </div>
      </form>
      <PaymentDialogs submission={submission} successTitle={() => resultMessages.depositAccepted} errorTitle="The deposit was not made" follow />
    </>
  );
}
