import { useState } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
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

/**
 * The seed's loan form: who is applying comes from the profile (read-only, not sent: the server
 * takes it from the session); the seven inputs are required, the numbers checked by the contract's
 * rules ($500 to $100,000, 6 to 84 months) before anything is sent.
 */
export function LoanApplicationForm({ customer, onSent, onAlreadyOpen }: LoanApplicationFormProps) {
  const apply = useApplyForLoan();
  const submissionKey = useSubmissionKey();
  const [dialogError, setDialogError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<LoanFormInput, unknown, LoanFormOutput>({ resolver: zodResolver(loanFormSchema), mode: 'onTouched', defaultValues: emptyLoanForm });
  const [amount, durationMonths, annualIncome] = useWatch({ control, name: ['amount', 'durationMonths', 'annualIncome'] });

  const onSubmit = handleSubmit((values) => {
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
          if (!showServerFieldErrors(error, fieldNames, setError, wireFieldNames)) setDialogError(error.message);
        },
      },
    );
  });

  const fullName = `${customer.firstName} ${customer.lastName}`.trim();
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
      <fieldset className="loan-form__group">
        <legend>The loan</legend>
        <div className="loan-form__pair">
          <TextField
            label="Desired amount"
            hint="In dollars, $500 to $100,000"
            inputMode="decimal"
            autoComplete="off"
            required
            error={errors.amount?.message}
            {...register('amount')}
          />
          <TextField
            label="Duration in months"
            hint="6 to 84"
            inputMode="numeric"
            autoComplete="off"
            required
            error={errors.durationMonths?.message}
            {...register('durationMonths')}
          />
        </div>
        <TextField
          label="Annual income"
          hint="Before tax, in dollars"
          inputMode="decimal"
          autoComplete="off"
          required
          error={errors.annualIncome?.message}
          {...register('annualIncome')}
        />
        <TextAreaField label="Purpose" rows={3} maxLength={300} required error={errors.purpose?.message} {...register('purpose')} />
        <LoanEstimate amount={amount} durationMonths={durationMonths} annualIncome={annualIncome} />
      </fieldset>
      <div className="loan-form__actions">
        <Button type="submit" size="lg" loading={apply.isPending}>
          Send application
        </Button>
      </div>
      <ErrorDialog title="The application was not sent" message={dialogError} onClose={() => setDialogError(null)} />
    </form>
  );
}
