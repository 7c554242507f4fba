import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { earliestBirthDate, idTypeLabels, idTypes, latestAdultBirthDate, type IdentityFields, type IdType } from '@strongroom/contracts/onboarding.ts';
import { CountryField, PostalAddressFields, type PostalAddressFieldName } from '../../../components/forms/postal-address-fields.tsx';
import { SelectField, type SelectOption } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

const idTypeOptions: readonly SelectOption[] = idTypes.map((idType) => ({ value: idType, label: idTypeLabels[idType] }));

/** What the number looks like for each kind of ID, said before the customer types it. */
const idNumberHints: Readonly<Record<IdType, string>> = {
  ssn: '9 digits, like 123-45-6789.',
  drivers_license: 'As printed on your license: letters, digits and dashes.',
  passport: '9 letters and digits, as printed on your passport.',
};

export interface IdentityDetailsFieldsProps {
  register: UseFormRegister<IdentityFields>;
  errors: FieldErrors<IdentityFields>;
  idType: IdType | undefined;
}

/** The typed half of the identity step: the ID, the date of birth and the home address (decision 055). */
export function IdentityDetailsFields({ register, errors, idType }: IdentityDetailsFieldsProps) {
  const addressField = (name: PostalAddressFieldName) => ({ ...register(name), error: errors[name]?.message });
  return (
    <>
      <SelectField label="Kind of ID" placeholder="Choose the kind of ID" options={idTypeOptions} error={errors.idType?.message} {...register('idType')} />
      <TextField
        label="ID number"
        hint={idType ? idNumberHints[idType] : 'Choose the kind of ID first.'}
        autoComplete="off"
        spellCheck={false}
        required
        error={errors.idNumber?.message}
        {...register('idNumber')}
      />
      <TextField
        label="Date of birth"
        type="date"
        autoComplete="bday"
        min={earliestBirthDate}
        max={latestAdultBirthDate()}
        hint="You must be 18 or over."
        required
        error={errors.dateOfBirth?.message}
        {...register('dateOfBirth')}
      />
      <CountryField field={addressField} />
      <fieldset className="identity-address">
        <legend>Home address in the United States</legend>
        <PostalAddressFields field={addressField} required stateAndZipClassName="identity-address__row" />
      </fieldset>
    </>
  );
}
