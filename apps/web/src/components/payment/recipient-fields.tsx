import type { UseFormReturn } from 'react-hook-form';
import { TextField } from '../ui/text-field.tsx';
import { AccountNumberField, BankCountryField, BankNameField, RoutingNumberField } from './bank-account-fields.tsx';
import { ChoiceGroup } from './choice-group.tsx';
import type { OtherBankChecked, OtherBankFormValues } from './other-bank-schema.ts';

export interface RecipientFieldsProps {
  form: UseFormReturn<OtherBankFormValues, unknown, OtherBankChecked>;
  /** This bank's name, for the choice of paying someone here. */
  bankName: string;
}

/**
 * A recipient typed by hand: at this bank the account number and holder name are enough; at
 * another bank its name, country and routing number are asked for too.
 */
export function RecipientFields({ form, bankName }: RecipientFieldsProps) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const otherBank = watch('bank') === 'other';
  const bankChoices = [
    { value: 'other', label: 'Another bank' },
    { value: 'this', label: `This bank (${bankName})` },
  ];
  return (
    <>
      <ChoiceGroup legend="Recipient’s bank" choices={bankChoices} registration={register('bank')} />
      <div className="money-form__pair">
        <AccountNumberField registration={register('toAccountNumber')} error={errors.toAccountNumber?.message} />
        <TextField label="Holder name" autoComplete="off" required error={errors.accountName?.message} {...register('accountName')} />
      </div>
      {otherBank ? (
        <>
          <div className="money-form__pair">
            <BankNameField registration={register('nameOfBank')} error={errors.nameOfBank?.message} />
            <BankCountryField registration={register('nameOfCountry')} error={errors.nameOfCountry?.message} />
          </div>
          <RoutingNumberField registration={register('routeNumber')} error={errors.routeNumber?.message} />
        </>
      ) : null}
    </>
  );
}
