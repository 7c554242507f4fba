import type { UseFormRegisterReturn } from 'react-hook-form';
import { usStates } from '@strongroom/contracts/us-states.ts';
import { SelectField, type SelectOption } from '../ui/select-field.tsx';
import { TextAreaField, TextField } from '../ui/text-field.tsx';
import { countryOptions } from '../../lib/countries.ts';

export type PostalAddressFieldName = 'country' | 'address' | 'city' | 'state' | 'zipCode';

/** One field as the form registers it, with its message: `{ ...register(name), error: errors[name]?.message }`. */
export type AddressFieldOf = (name: PostalAddressFieldName) => UseFormRegisterReturn & { error: string | undefined };

const stateOptions: readonly SelectOption[] = usStates.map((state) => ({ value: state.code, label: state.name }));

/** The country of a postal address, the same select wherever an address is asked for. */
export function CountryField({ field }: { field: AddressFieldOf }) {
  return <SelectField label="Country" autoComplete="country" placeholder="Choose a country" options={countryOptions} {...field('country')} />;
}

export interface PostalAddressFieldsProps {
  field: AddressFieldOf;
  /** Marks the typed fields required, as the identity step does. */
  required?: boolean;
  /** Puts State and ZIP code side by side in a block of this class. */
  stateAndZipClassName?: string;
}

/**
 * A US postal address (decision 055): street, city, state and ZIP code, with the same labels,
 * hints and autocomplete tokens on the identity step and in the contact settings.
 */
export function PostalAddressFields({ field, required = false, stateAndZipClassName }: PostalAddressFieldsProps) {
  const stateAndZip = (
    <>
      <SelectField label="State" autoComplete="address-level1" placeholder="Choose a state" options={stateOptions} {...field('state')} />
      <TextField label="ZIP code" inputMode="numeric" autoComplete="postal-code" hint="5 digits, or ZIP+4." required={required} {...field('zipCode')} />
    </>
  );
  return (
    <>
      <TextAreaField
        label="Street address"
        hint="One or two lines: the street and number, then an apartment or suite if you have one."
        rows={2}
        autoComplete="street-address"
        required={required}
        {...field('address')}
      />
      <TextField label="City" autoComplete="address-level2" required={required} {...field('city')} />
      {stateAndZipClassName ? <div className={stateAndZipClassName}>{stateAndZip}</div> : stateAndZip}
    </>
  );
}
