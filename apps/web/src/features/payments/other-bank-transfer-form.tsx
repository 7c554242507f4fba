import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { useBeneficiaries } from '../../lib/api/get-beneficiaries.ts';
import { usePayeeCheck } from './api/check-payee.ts';
import { createTransfer } from './api/create-transfer.ts';
import { FavouriteFields } from './favourite-fields.tsx';
import { emptyRecipient, otherBankFormSchema, type OtherBankChecked, type OtherBankFormValues } from '../../components/payment/other-bank-schema.ts';
import { otherBankTransferFor } from './other-bank-transfer.tsx';
import { PayeeCheckNotice } from './payee-check-notice.tsx';
import { RecipientFields } from '../../components/payment/recipient-fields.tsx';
import { accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps } from '../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../components/payment/available-balance.ts';
import { PaymentMessageField } from '../../components/payment/message-field.tsx';
import { transferSuccessTitle } from '../../components/payment/payment-dialogs.tsx';
import { MoneyReviewForm, usePaymentReview } from '../../components/payment/payment-review.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';
import type { CreateTransferRequest } from '@strongroom/contracts/payments.ts';
import './transfer-page.css';

const fieldNames: readonly Path<OtherBankFormValues>[] = [
  'fromAccountId',
  'toAccountNumber',
  'nameOfBank',
  'accountName',
  'nameOfCountry',
  'routeNumber',
  'amount',
  'message',
];

function defaultsFor(accounts: readonly Account[], modes: Pick<OtherBankFormValues, 'favourite' | 'bank'>): OtherBankFormValues {
  return { fromAccountId: accounts[0]?.id ?? '', ...modes, ...emptyRecipient, amount: '', message: '', addToFavorites: false };
}

/**
 * 'Transfer to other bank': the seed's 'To Bank Account' form, with a choice of this bank or
 * another, and its 'Favorite list' toggle. A payee at this bank is checked by name before the
 * customer confirms.
 */
export function OtherBankTransferForm({ accounts }: { accounts: readonly Account[] }) {
  const { name: bankName } = useBankIdentity();
  const favourites = useBeneficiaries();
  const form = useForm<OtherBankFormValues, unknown, OtherBankChecked>({
    resolver: zodResolver(otherBankFormSchema),
    mode: 'onTouched',
    defaultValues: defaultsFor(accounts, { favourite: false, bank: 'other' }),
  });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = form;
  const review = usePaymentReview<CreateTransferRequest, OtherBankChecked>(createTransfer, {
    placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, form.setError, paymentFieldNames),
    onDone: () => form.reset(defaultsFor(accounts, { favourite: form.getValues('favourite'), bank: form.getValues('bank') })),
  });
  const pending = review.pending;
  const favouriteMode = watch('favourite');
  const context = { accounts, beneficiaries: favourites.data?.items ?? [], bankName };
  const transfer = pending ? otherBankTransferFor(pending, context) : null;
  const payeeCheck = usePayeeCheck(transfer?.payee ?? null);
  const payeeBlocks = transfer?.payee != null && payeeCheck.isPending;

  const onSubmit = handleSubmit((checked) => {
    const insufficient = moreThanAvailableMessage(accounts, checked.fromAccountId, checked.amount);
    if (insufficient) {
      form.setError('amount', { type: 'balance', message: insufficient }, { shouldFocus: true });
      return;
    }
    if (otherBankTransferFor(checked, context)) review.review(checked);
    else form.setError('beneficiaryId', { type: 'validate', message: 'Choose a favorite' }, { shouldFocus: true });
  });

  function switchMode(favourite: boolean) {
    form.reset({ ...form.getValues(), ...emptyRecipient, favourite, addToFavorites: false }, { keepDefaultValues: true });
  }

  function applyAccountName(accountName: string) {
    form.setValue('accountName', accountName, { shouldDirty: true });
    review.review((current) => (current ? { ...current, accountName } : current));
  }

  return (
    <MoneyReviewForm
      label="Transfer to other bank"
      onSubmit={onSubmit}
      review={review}
      payment={transfer}
      title="Confirm the transfer"
      successTitle={transferSuccessTitle}
      errorTitle="The transfer was not sent"
      confirmDisabled={payeeBlocks}
      reviewNotice={transfer?.payee ? <PayeeCheckNotice check={payeeCheck} onUseName={applyAccountName} /> : null}
    >
      <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
      <Switch label="Favorite list" description="Pay someone you saved before." checked={favouriteMode} onCheckedChange={switchMode} />
      {favouriteMode ? <FavouriteFields form={form} favourites={favourites} /> : <RecipientFields form={form} bankName={bankName} />}
      <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
      <PaymentMessageField registration={register('message')} value={watch('message')} error={errors.message?.message} />
      {favouriteMode ? null : <Checkbox label="Add to favorites" {...register('addToFavorites')} />}
    </MoneyReviewForm>
  );
}
