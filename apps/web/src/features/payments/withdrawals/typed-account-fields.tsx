import type { UseFormReturn } from 'react-hook-form';
import { usStates } from '@strongroom/contracts/us-states.ts';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { AccountNumberField, BankNameField, countryOptions, RoutingNumberField } from '../../../components/payment/bank-account-fields.tsx';
import type { WithdrawChecked, WithdrawFormValues } from './withdraw-form-schema.ts';

const stateOptions = usStates.map((state) => ({ value: state.name, label: state.name }));
/** The country whose states the form lists; elsewhere the state is typed. */
const listedStatesCountry = 'United States';

/** 'Another account (type its details)': where the bank is, which bank, and the account there. */
export function TypedAccountFields({ form }: { form: UseFormReturn<WithdrawFormValues, unknown, WithdrawChecked> }) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const statesListed = watch('country') === listedStatesCountry;
  return (
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
        <BankNameField registration={register('nameOfBank')} error={errors.nameOfBank?.message} />
        <TextField label="Bank address" autoComplete="off" required error={errors.bankAddress?.message} {...register('bankAddress')} />
      </div>
      <div className="money-form__pair">
        <TextField label="Account name" autoComplete="name" required error={errors.accountName?.message} {...register('accountName')} />
        <AccountNumberField registration={register('accountNumber')} error={errors.accountNumber?.message} />
      </div>
      <RoutingNumberField registration={register('routeNumber')} error={errors.routeNumber?.message} />
    </>
  );
}
