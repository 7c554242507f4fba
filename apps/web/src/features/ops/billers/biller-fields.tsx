import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { categoryOptions, paymentMethodLabels, type BillerForm } from './biller-form-schema.ts';

const methodOptions = (['ach', 'simulator'] as const).map((value) => ({ value, label: paymentMethodLabels[value] }));
/** A production bank pays billers by ACH only: the rail simulator is the sandbox's (the server refuses it otherwise). */
const productionMethodOptions = methodOptions.filter((option) => option.value === 'ach');

/** Every field of a biller, each labelled, with the schema's or the server's message beside it; the bank account for ACH only. */
export function BillerFields({ register, errors, ach }: { register: UseFormRegister<BillerForm>; errors: FieldErrors<BillerForm>; ach: boolean }) {
  const sandbox = useBankIdentity().mode === 'sandbox';
  return (
    <>
      <SelectField label="Category" placeholder="Choose a category" options={categoryOptions} error={errors.category?.message} {...register('category')} />
      <TextField label="Name" required maxLength={80} autoComplete="off" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Account number pattern"
        required
        maxLength={200}
        spellCheck={false}
        className="biller-form__code"
        hint="A regular expression the customer's whole account number at this biller must match, such as \d{10}"
        error={errors.accountNumberPattern?.message}
        {...register('accountNumberPattern')}
      />
      <TextField
        label="Example account number"
        required
        maxLength={40}
        autoComplete="off"
        hint="Shown to a customer whose account number does not match"
        error={errors.accountNumberExample?.message}
        {...register('accountNumberExample')}
      />
      <SelectField
        label="How the bank pays it"
        options={sandbox ? methodOptions : productionMethodOptions}
        error={errors.paymentMethod?.message}
        {...register('paymentMethod')}
      />
      {ach ? (
        <>
          <TextField
            label="Biller's routing number"
            required
            inputMode="numeric"
            autoComplete="off"
            maxLength={9}
            hint="9 digits"
            error={errors.routingNumber?.message}
            {...register('routingNumber')}
          />
          <TextField
            label="Biller's bank account number"
            required
            inputMode="numeric"
            autoComplete="off"
            maxLength={17}
            hint="4 to 17 digits"
            error={errors.accountNumber?.message}
            {...register('accountNumber')}
          />
        </>
      ) : null}
      <Checkbox label="Active: customers can choose this biller" error={errors.active?.message} {...register('active')} />
      <TextField label="Reason (kept in the audit log)" required maxLength={500} error={errors.reason?.message} {...register('reason')} />
    </>
  );
}
