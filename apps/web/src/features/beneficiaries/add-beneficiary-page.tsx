import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft, CircleAlert } from 'lucide-react';
import type { BankType } from '@strongroom/contracts/beneficiaries.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { countryNames } from '@strongroom/contracts/countries.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { isApiError } from '../../lib/api-client.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { addBeneficiaryFormSchema, type AddBeneficiaryFormInput, type AddBeneficiaryFormOutput } from './add-beneficiary-form-schema.ts';
import { useCreateBeneficiary } from './api/create-beneficiary.ts';
import './add-beneficiary-page.css';

const fieldNames: readonly Path<AddBeneficiaryFormInput>[] = ['bankType', 'bankName', 'accountName', 'accountNumber', 'nameOfCountry', 'routeNumber'];

const countryOptions = countryNames.map((name) => ({ value: name, label: name }));

/** Refusals of a payee of this bank that belong under a field: a name that is not the account's, the customer's own account (decision 060). */
const payeeRefusals: ReadonlySet<string> = new Set(['payee_name_mismatch', 'own_account_payee']);

const bankTypeChoices: readonly { value: BankType; label: string }[] = [
  { value: 'mybank', label: 'This bank' },
  { value: 'otherbank', label: 'Other bank' },
];

/**
 * /add-beneficiaries: the seed's five text fields and the bank type. Choosing this bank fills in
 * its name and routing number, which are known; choosing another bank again empties them.
 */
export default function AddBeneficiaryPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { name: bankName } = useBankIdentity();
  const create = useCreateBeneficiary();
  const [dialogError, setDialogError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    clearErrors,
    formState: { errors },
  } = useForm<AddBeneficiaryFormInput, unknown, AddBeneficiaryFormOutput>({
    resolver: zodResolver(addBeneficiaryFormSchema),
    mode: 'onTouched',
    defaultValues: { bankName: '', accountName: '', accountNumber: '', nameOfCountry: '', routeNumber: '' },
  });

  function onBankTypeChange(bankType: string) {
    const ownBank = { bankName, routeNumber: businessConstants.bankRoutingNumber } as const;
    for (const field of ['bankName', 'routeNumber'] as const) {
      if (bankType === 'mybank') {
        setValue(field, ownBank[field]);
        clearErrors(field);
      } else if (getValues(field) === ownBank[field]) {
        setValue(field, '');
      }
    }
  }

  const onSubmit = handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: (beneficiary) => {
        toast.show(`${beneficiary.accountName} was added to your beneficiaries`);
        navigate(`/beneficiaries?tab=${beneficiary.bankType}`);
      },
      onError: (error) => {
        if (showServerFieldErrors(error, fieldNames, setError)) return;
        if (isApiError(error) && payeeRefusals.has(error.code)) {
          const field = error.code === 'own_account_payee' ? 'accountNumber' : 'accountName';
          setError(field, { type: 'server', message: error.fields[field] ?? error.message }, { shouldFocus: true });
          return;
        }
        setDialogError(error.message);
      },
    });
  });

  const bankTypeErrorId = 'bank-type-error';
  return (
    <div className="add-beneficiary">
      <PageMeta title="Add beneficiary" description="Save an account you pay often." noIndex />
      <p className="add-beneficiary__back">
        <Link to="/beneficiaries">
          <ArrowLeft aria-hidden="true" size={18} />
          Beneficiaries
        </Link>
      </p>
      <h1>Add beneficiary</h1>
      <Card className="add-beneficiary__card">
        <form className="add-beneficiary__form" noValidate onSubmit={onSubmit}>
          <fieldset className={errors.bankType ? 'bank-type bank-type--invalid' : 'bank-type'} aria-describedby={errors.bankType ? bankTypeErrorId : undefined}>
            <legend className="field__label">Bank type</legend>
            <div className="bank-type__choices">
              {bankTypeChoices.map((choice) => (
                <label key={choice.value} className="bank-type__choice">
                  <input
                    type="radio"
                    value={choice.value}
                    aria-invalid={errors.bankType ? true : undefined}
                    {...register('bankType', { onChange: (event) => onBankTypeChange(event.target.value) })}
                  />
                  {choice.label}
                </label>
              ))}
            </div>
            {errors.bankType ? (
              <p className="field__error" id={bankTypeErrorId}>
                <CircleAlert aria-hidden="true" size={16} />
                {errors.bankType.message}
              </p>
            ) : null}
          </fieldset>
          <TextField label="Bank name" autoComplete="off" required error={errors.bankName?.message} {...register('bankName')} />
          <TextField label="Account name" autoComplete="off" required error={errors.accountName?.message} {...register('accountName')} />
          <TextField
            label="Account number"
            inputMode="numeric"
            autoComplete="off"
            required
            error={errors.accountNumber?.message}
            {...register('accountNumber')}
          />
          <SelectField
            label="Country name"
            options={countryOptions}
            placeholder="Choose a country"
            required
            error={errors.nameOfCountry?.message}
            {...register('nameOfCountry')}
          />
          <TextField
            label="Routing number"
            hint="The bank's nine-digit US routing number. International transfers are not offered yet."
            inputMode="numeric"
            autoComplete="off"
            required
            error={errors.routeNumber?.message}
            {...register('routeNumber')}
          />
          <Button type="submit" size="lg" block loading={create.isPending}>
            Add beneficiary
          </Button>
        </form>
      </Card>
      <ErrorDialog title="The beneficiary was not added" message={dialogError} onClose={() => setDialogError(null)} />
    </div>
  );
}
