import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { countryNames } from '@strongroom/contracts/countries.ts';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { useBeneficiaries } from '../../lib/api/get-beneficiaries.ts';
import { usePayeeCheck } from './api/check-payee.ts';
import { createTransfer } from './api/create-transfer.ts';
import { FavouriteFields } from './favourite-fields.tsx';
import { emptyRecipient, otherBankFormSchema, type OtherBankChecked, type OtherBankFormValues } from './other-bank-schema.ts';
import { otherBankTransferFor } from './other-bank-transfer.tsx';
import { PayeeCheckNotice } from './payee-check-notice.tsx';
import { accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps } from '../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../components/payment/available-balance.ts';
import { PaymentMessageField } from '../../components/payment/message-field.tsx';
import { ConfirmPaymentDialog } from '../../components/payment/confirm-payment-dialog.tsx';
import { PaymentDialogs, transferSuccessTitle } from '../../components/payment/payment-dialogs.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { usePaymentSubmission } from '../../components/payment/use-payment-submission.ts';
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

const countryOptions = countryNames.map((name) => ({ value: name, label: name }));

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
  const submission = usePaymentSubmission(createTransfer);
  const [pending, setPending] = useState<OtherBankChecked | null>(null);
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
  const favouriteMode = watch('favourite');
  const otherBank = watch('bank') === 'other';
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
    if (otherBankTransferFor(checked, context)) setPending(checked);
    else form.setError('beneficiaryId', { type: 'validate', message: 'Choose a favorite' }, { shouldFocus: true });
  });

  function switchMode(favourite: boolean) {
    form.reset({ ...form.getValues(), ...emptyRecipient, favourite, addToFavorites: false }, { keepDefaultValues: true });
  }

  function applyAccountName(accountName: string) {
    form.setValue('accountName', accountName, { shouldDirty: true });
    setPending((current) => (current ? { ...current, accountName } : current));
  }

  async function confirm() {
    if (!transfer) return;
    const result = await submission.submit(transfer.body, {
      placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, form.setError, paymentFieldNames),
    });
    if (result === 'cancelled') return;
    setPending(null);
    if (result === 'done') form.reset(defaultsFor(accounts, { favourite: form.getValues('favourite'), bank: form.getValues('bank') }));
  }

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Transfer to other bank">
        <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <Switch label="Favorite list" description="Pay someone you saved before." checked={favouriteMode} onCheckedChange={switchMode} />
        {favouriteMode ? (
          <FavouriteFields form={form} favourites={favourites} />
        ) : (
          <>
            <fieldset className="choice-group">
              <legend className="field__label">Recipient’s bank</legend>
              <div className="choice-group__options">
                <label className="choice">
                  <input type="radio" value="other" {...register('bank')} />
                  Another bank
                </label>
                <label className="choice">
                  <input type="radio" value="this" {...register('bank')} />
                  This bank ({bankName})
                </label>
              </div>
            </fieldset>
            <div className="money-form__pair">
              <TextField
                label="Account number"
                inputMode="numeric"
                autoComplete="off"
                required
                error={errors.toAccountNumber?.message}
                {...register('toAccountNumber')}
              />
              <TextField label="Holder name" autoComplete="off" required error={errors.accountName?.message} {...register('accountName')} />
            </div>
            {otherBank ? (
              <>
                <div className="money-form__pair">
                  <TextField label="Bank name" autoComplete="off" required error={errors.nameOfBank?.message} {...register('nameOfBank')} />
                  <SelectField
                    label="Country name"
                    options={countryOptions}
                    placeholder="Choose a country"
                    required
                    error={errors.nameOfCountry?.message}
                    {...register('nameOfCountry')}
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
          </>
        )}
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <PaymentMessageField registration={register('message')} value={watch('message')} error={errors.message?.message} />
        {favouriteMode ? null : <Checkbox label="Add to favorites" {...register('addToFavorites')} />}
        <div className="money-form__actions">
          <Button type="submit" size="lg">
            Continue
          </Button>
        </div>
      </form>
      <ConfirmPaymentDialog
        open={transfer !== null}
        title="Confirm the transfer"
        rows={transfer?.rows ?? []}
        confirming={submission.isPending}
        confirmDisabled={payeeBlocks}
        onModify={() => setPending(null)}
        onConfirm={() => void confirm()}
      >
        {transfer?.payee ? <PayeeCheckNotice check={payeeCheck} onUseName={applyAccountName} /> : null}
      </ConfirmPaymentDialog>
      <PaymentDialogs submission={submission} successTitle={transferSuccessTitle} errorTitle="The transfer was not sent" />
    </>
  );
}
