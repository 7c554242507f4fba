import type { UseFormRegisterReturn } from 'react-hook-form';
import { countryNames } from '@strongroom/contracts/countries.ts';
import { SelectField } from '../ui/select-field.tsx';
import { TextField } from '../ui/text-field.tsx';

/** The countries a bank account may be in, as the contracts name them. */
export const countryOptions = countryNames.map((name) => ({ value: name, label: name }));

/** What the routing number is, under the field of every form that pays or saves an account at another bank. */
export const routingNumberHint = 'The bank’s 9-digit US routing number. International transfers are not offered yet.';

export interface BankAccountFieldProps {
  registration: UseFormRegisterReturn;
  error: string | undefined;
}

/**
 * The fields that name an account at a bank, the same in every money form that asks for one
 * (transfer to another bank, withdrawal, a linked bank, a beneficiary): one label, one keypad,
 * no autofill of someone else's details.
 */
export function AccountNumberField({ registration, error }: BankAccountFieldProps) {
  return <TextField label="Account number" inputMode="numeric" autoComplete="off" required error={error} {...registration} />;
}

export function BankNameField({ registration, error }: BankAccountFieldProps) {
  return <TextField label="Bank name" autoComplete="off" required error={error} {...registration} />;
}

export function RoutingNumberField({ registration, error, hint = routingNumberHint }: BankAccountFieldProps & { hint?: string }) {
  return <TextField label="Routing number" hint={hint} inputMode="numeric" autoComplete="off" required error={error} {...registration} />;
}

/** The country of a payee's bank, chosen from the list. */
export function BankCountryField({ registration, error }: BankAccountFieldProps) {
  return <SelectField label="Country name" options={countryOptions} placeholder="Choose a country" required error={error} {...registration} />;
}
