import { useState } from 'react';
import { useForm, useWatch, type Control, type FieldErrors, type Path, type UseFormRegister } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { loanRules, maritalStatuses, maritalStatusLabels } from '@strongroom/contracts/loans.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Customer } from '@strongroom/contracts/auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { useApplyForLoan } from './api/loans-api.ts';
import { LoanEstimate } from './loan-estimate.tsx';
import { emptyLoanForm, loanFormSchema, type LoanFormInput, type LoanFormOutput } from './loan-form-schema.ts';

const fieldNames: readonly Path<LoanFormInput>[] = ['maritalStatus', 'occupation', 'address', 'amount', 'annualIncome', 'purpose', 'durationMonths'];

/** The wire's names for the numbers, the form's for what was typed. */
const wireFieldNames: Readonly<Record<string, string>> = { amountCents: 'amount', annualIncomeCents: 'annualIncome' };

const maritalOptions = maritalStatuses.map((status) => ({ value: status, label: maritalStatusLabels[status] }));

export interface LoanApplicationFormProps {
  customer: Customer;
  onSent: () => void;
  /** 409 `loan_application_open`: another application (another tab, another device) already waits. */
  onAlreadyOpen: () => void;
}

interface LoanFieldsProps {
  register: UseFormRegister<LoanFormInput>;
  errors: FieldErrors<LoanFormInput>;
}

/** Who is applying: read from the profile, not sent; then marital status, occupation and address. */
function AboutYouFields({ customer, register, errors }: LoanFieldsProps & { customer: Customer }) {
  const fullName = `${customer.firstName} ${customer.lastName}`.trim();
  return (
    <fieldset className="loan-form__group">
      <legend>About you</legend>
      <p className="loan-form__hint">From your profile.</p>
      <div className="loan-form__pair">
        <TextField label="Full name" value={fullName} readOnly />
        <TextField label="Email" type="email" value={customer.email} readOnly />
      </div>
      <TextField label="Phone" type="tel" value={customer.phoneNumber ?? ''} readOnly />
      <div className="loan-form__pair">
        <SelectField
          label="Marital status"
          placeholder="Choose…"
          options={maritalOptions}
          required
          error={errors.maritalStatus?.message}
          {...register('maritalStatus')}
        />
        <TextField label="Occupation" autoComplete="organization-title" required error={errors.occupation?.message} {...register('occupation')} />
      </div>
      <TextField label="Address" autoComplete="street-address" required error={errors.address?.message} {...register('address')} />
    </fieldset>
  );
}

interface LoanNumberFieldProps extends LoanFieldsProps {
  name: 'amount' | 'durationMonths' | 'annualIncome';
  label: string;
  hint: string;
  inputMode: 'decimal' | 'numeric';
}

/** A typed number of the application, checked by the contract's rules. */
function LoanNumberField({ name, label, hint, inputMode, register, errors }: LoanNumberFieldProps) {
  return <TextField label={label} hint={hint} inputMode={inputMode} autoComplete="off" required error={errors[name]?.message} {...register(name)} />;
}

/** The loan asked for: amount, duration, income and purpose, with the estimate that follows the typing. */
function TheLoanFields({ register, errors, control }: LoanFieldsProps & { control: Control<LoanFormInput, unknown, LoanFormOutput> }) {
  const [amount, durationMonths, annualIncome] = useWatch({ control, name: ['amount', 'durationMonths', 'annualIncome'] });
  return (
    <fieldset className="loan-form__group">
      <legend>The loan</legend>
      <div className="loan-form__pair">
        <LoanNumberField name="amount" label="Desired amount" hint="In dollars, $500 to $100,000" inputMode="decimal" register={register} errors={errors} />
        <LoanNumberField name="durationMonths" label="Duration in months" hint="6 to 84" inputMode="numeric" register={register} errors={errors} />
      </div>
      <LoanNumberField name="annualIncome" label="Annual income" hint="Before tax, in dollars" inputMode="decimal" register={register} errors={errors} />
      <TextAreaField label="Purpose" rows={3} maxLength={300} required error={errors.purpose?.message} {...register('purpose')} />
      <LoanEstimate amount={amount} durationMonths={durationMonths} annualIncome={annualIncome} />
    </fieldset>
  );
}

/** The form and its sending: once per Idempotency-Key, a refusal under its field or in a dialog. */
function useLoanApplication({ onSent, onAlreadyOpen }: Pick<LoanApplicationFormProps, 'onSent' | 'onAlreadyOpen'>) {
  const apply = useApplyForLoan();
  const submissionKey = useSubmissionKey();
  const [dialogError, setDialogError] = useState<string | null>(null);
  const form = useForm<LoanFormInput, unknown, LoanFormOutput>({ resolver: zodResolver(loanFormSchema), mode: 'onTouched', defaultValues: emptyLoanForm });

  const onSubmit = form.handleSubmit((values) => {
    const body = {
      maritalStatus: values.maritalStatus,
      occupation: values.occupation,
      address: values.address,
      amountCents: values.amount,
      annualIncomeCents: values.annualIncome,
      purpose: values.purpose,
      durationMonths: values.durationMonths,
    };
    apply.mutate(
      { body, idempotencyKey: submissionKey.keyFor(body) },
      {
        onSuccess: () => {
          submissionKey.release();
          onSent();
        },
        onError: (error) => {
          if (error instanceof ApiError && settlesSubmission(error)) submissionKey.release();
          if (error instanceof ApiError && error.code === 'loan_application_open') {
            submissionKey.release();
            onAlreadyOpen();
            return;
          }
          if (!showServerFieldErrors(error, fieldNames, form.setError, wireFieldNames)) setDialogError(error.message);
        },
      },
    );
  });

  return { form, onSubmit, sending: apply.isPending, dialogError, clearDialogError: () => setDialogError(null) };
}

/**
 * The seed's loan form: who is applying comes from the profile (read-only, not sent: the server
 * takes it from the session); the seven inputs are required, the numbers checked by the contract's
 * rules ($500 to $100,000, 6 to 84 months) before anything is sent.
 */
export function LoanApplicationForm({ customer, onSent, onAlreadyOpen }: LoanApplicationFormProps) {
  const { form, onSubmit, sending, dialogError, clearDialogError } = useLoanApplication({ onSent, onAlreadyOpen });
  const {
    register,
    control,
    formState: { errors },
  } = form;

  return (
    <form className="loan-form" noValidate onSubmit={onSubmit} aria-labelledby="loan-form-title">
      <h2 id="loan-form-title" className="loans__section-title">
        Apply for a loan
      </h2>
      <p className="loan-form__intro">
        Borrow {formatMoney(loanRules.minAmountCents)} to {formatMoney(loanRules.maxAmountCents)} over {loanRules.minDurationMonths} to{' '}
        {loanRules.maxDurationMonths} months. If we approve, we send you an offer with its full cost and every payment; once you accept it, the money goes to
        your checking account.
      </p>
      <AboutYouFields customer={customer} register={register} errors={errors} />
      <TheLoanFields register={register} errors={errors} control={control} />
      <div className="loan-form__actions">
        <Button type="submit" size="lg" loading={sending}>
          Send application
        </Button>
      </div>
      <ErrorDialog title="The application was not sent" message={dialogError} onClose={clearDialogError} />
    </form>
  );
}
