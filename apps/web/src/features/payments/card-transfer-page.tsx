import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { type z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { cardNumberField, cardTransferRequestSchema, type CreateTransferRequest } from '@strongroom/contracts/payments.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { useBeneficiaries } from '../../lib/api/get-beneficiaries.ts';
import { createTransfer } from './api/create-transfer.ts';
import { cardTypeOf, maskedCardNumber } from './card-type.ts';
import { accountLabel, accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps, amountTextField } from '../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../components/payment/available-balance.ts';
import { PaymentMessageField } from '../../components/payment/message-field.tsx';
import { transferSuccessTitle } from '../../components/payment/payment-dialogs.tsx';
import { MoneyReviewForm, usePaymentReview, type ReviewedPayment } from '../../components/payment/payment-review.tsx';
import { requiredField } from '../../components/payment/required-field.ts';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { SourceAccounts } from '../../components/payment/source-accounts.tsx';
import '../../components/payment/payment.css';

const cardFormSchema = cardTransferRequestSchema
  .omit({ kind: true, amountCents: true })
  .extend({ cardNumber: requiredField(cardNumberField), amount: amountTextField });

type CardFormValues = z.input<typeof cardFormSchema>;

const fieldNames: readonly Path<CardFormValues>[] = ['fromAccountId', 'accountName', 'cardNumber', 'amount', 'message'];

type PendingCardTransfer = ReviewedPayment<CreateTransferRequest>;

function defaultsFor(accounts: readonly Account[]): CardFormValues {
  return { fromAccountId: accounts[0]?.id ?? '', accountName: '', cardNumber: '', amount: '', message: '' };
}

/** /send-card: money to a card by its number (seed: amount, holder name, card number, message). */
export default function CardTransferPage() {
  return (
    <div className="money-page">
      <PageMeta title="Send to a card" description="Send money to a debit or credit card." noIndex />
      <header className="money-page__header">
        <h1>Send to a card</h1>
        <p>Money to a debit or credit card, by the number on the card.</p>
      </header>
      <SourceAccounts>{(accounts) => <CardTransferForm accounts={accounts} />}</SourceAccounts>
    </div>
  );
}

function CardTransferForm({ accounts }: { accounts: readonly Account[] }) {
  const favourites = useBeneficiaries();
  const [favouriteId, setFavouriteId] = useState('');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(cardFormSchema), mode: 'onTouched', defaultValues: defaultsFor(accounts) });
  const review = usePaymentReview<CreateTransferRequest, PendingCardTransfer>(createTransfer, {
    placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, paymentFieldNames),
    onDone: () => {
      reset(defaultsFor(accounts));
      setFavouriteId('');
    },
  });
  const cardType = cardTypeOf(watch('cardNumber'));

  const onSubmit = handleSubmit((values) => {
    const insufficient = moreThanAvailableMessage(accounts, values.fromAccountId, values.amount);
    if (insufficient) {
      setError('amount', { type: 'balance', message: insufficient }, { shouldFocus: true });
      return;
    }
    const from = accounts.find((account) => account.id === values.fromAccountId);
    review.review({
      body: {
        kind: 'card',
        fromAccountId: values.fromAccountId,
        amountCents: values.amount,
        message: values.message,
        cardNumber: values.cardNumber,
        accountName: values.accountName,
      },
      rows: [
        { label: 'From', value: from ? accountLabel(from) : values.fromAccountId },
        { label: 'Holder name', value: values.accountName },
        { label: 'Card', value: maskedCardNumber(values.cardNumber) },
        { label: 'Amount', value: <span className="tabular">{formatMoney(values.amount)}</span> },
        { label: 'Message', value: values.message },
      ],
    });
  });

  const favouriteOptions = (favourites.data?.items ?? []).map((favourite) => ({
    value: favourite.id,
    label: `${favourite.accountName} (${favourite.bankName})`,
  }));

  return (
    <MoneyReviewForm
      label="Send to a card"
      onSubmit={onSubmit}
      review={review}
      payment={review.pending}
      title="Confirm the details"
      successTitle={transferSuccessTitle}
      errorTitle="The money was not sent"
    >
      <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
      {favouriteOptions.length > 0 ? (
        <SelectField
          label="Favorites"
          hint="Fills in the holder name."
          placeholder="Choose a favorite"
          options={favouriteOptions}
          optional
          value={favouriteId}
          onChange={(event) => {
            setFavouriteId(event.target.value);
            const favourite = favourites.data?.items.find((candidate) => candidate.id === event.target.value);
            setValue('accountName', favourite?.accountName ?? '', { shouldDirty: true, shouldValidate: favourite !== undefined });
          }}
        />
      ) : null}
      <TextField label="Holder name" autoComplete="cc-name" required error={errors.accountName?.message} {...register('accountName')} />
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        hint={cardType ? `Card type: ${cardType}` : 'The 12 to 19 digits on the front of the card'}
        required
        error={errors.cardNumber?.message}
        {...register('cardNumber')}
      />
      <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
      <PaymentMessageField registration={register('message')} value={watch('message')} error={errors.message?.message} />
    </MoneyReviewForm>
  );
}
