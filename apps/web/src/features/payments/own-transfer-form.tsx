import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { type z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { ownTransferRequestSchema, type CreateTransferRequest } from '@strongroom/contracts/payments.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { createTransfer } from './api/create-transfer.ts';
import { accountLabel, accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps, amountTextField } from '../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../components/payment/available-balance.ts';
import { PaymentMessageField } from '../../components/payment/message-field.tsx';
import { transferSuccessTitle } from '../../components/payment/payment-dialogs.tsx';
import { MoneyReviewForm, usePaymentReview, type ReviewedPayment } from '../../components/payment/payment-review.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';

const ownFormSchema = ownTransferRequestSchema
  .omit({ kind: true, amountCents: true })
  .extend({ amount: amountTextField })
  .refine((values) => values.fromAccountId !== values.toAccountId, {
    path: ['toAccountId'],
    message: 'choose an account other than the one you pay from',
  });

type OwnFormValues = z.input<typeof ownFormSchema>;

const fieldNames: readonly Path<OwnFormValues>[] = ['fromAccountId', 'toAccountId', 'amount', 'message'];

type PendingTransfer = ReviewedPayment<CreateTransferRequest>;

function defaultsFor(accounts: readonly Account[]): OwnFormValues {
  return { fromAccountId: accounts[0]?.id ?? '', toAccountId: accounts[1]?.id ?? '', amount: '', message: '' };
}

/** 'Transfer within my accounts': from one of the customer's accounts to another, at once. */
export function OwnTransferForm({ accounts }: { accounts: readonly Account[] }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ownFormSchema), mode: 'onTouched', defaultValues: defaultsFor(accounts) });
  const review = usePaymentReview<CreateTransferRequest, PendingTransfer>(createTransfer, {
    placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, paymentFieldNames),
    onDone: () => reset(defaultsFor(accounts)),
  });
  const options = accountOptions(accounts);

  const onSubmit = handleSubmit((values) => {
    const insufficient = moreThanAvailableMessage(accounts, values.fromAccountId, values.amount);
    if (insufficient) {
      setError('amount', { type: 'balance', message: insufficient }, { shouldFocus: true });
      return;
    }
    const from = accounts.find((account) => account.id === values.fromAccountId);
    const to = accounts.find((account) => account.id === values.toAccountId);
    review.review({
      body: { kind: 'own', fromAccountId: values.fromAccountId, amountCents: values.amount, message: values.message, toAccountId: values.toAccountId },
      rows: [
        { label: 'From', value: from ? accountLabel(from) : values.fromAccountId },
        { label: 'To', value: to ? accountLabel(to) : values.toAccountId },
        { label: 'Amount', value: <span className="tabular">{formatMoney(values.amount)}</span> },
        ...(values.message === '' ? [] : [{ label: 'Message', value: values.message }]),
      ],
    });
  });

  return (
    <MoneyReviewForm
      label="Transfer within my accounts"
      onSubmit={onSubmit}
      review={review}
      payment={review.pending}
      title="Confirm the transfer"
      successTitle={transferSuccessTitle}
      errorTitle="The transfer was not sent"
    >
      <div className="money-form__pair">
        <SelectField label="From account" options={options} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <SelectField
          label="To account"
          options={options}
          placeholder="Choose an account"
          required
          error={errors.toAccountId?.message}
          {...register('toAccountId')}
        />
      </div>
      <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
      <PaymentMessageField registration={register('message')} value={watch('message') ?? ''} error={errors.message?.message} optional />
    </MoneyReviewForm>
  );
}
