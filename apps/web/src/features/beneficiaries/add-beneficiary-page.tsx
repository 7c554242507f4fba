import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { isApiError } from '../../lib/api-client.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { AccountNumberField, BankCountryField, BankNameField, RoutingNumberField } from '../../components/payment/bank-account-fields.tsx';
import { addBeneficiaryFormSchema, type AddBeneficiaryFormInput, type AddBeneficiaryFormOutput } from './add-beneficiary-form-schema.ts';
import { useCreateBeneficiary } from './api/create-beneficiary.ts';
import { BankTypeChoice } from './bank-type-choice.tsx';
import './add-beneficiary-page.css';

const fieldNames: readonly Path<AddBeneficiaryFormInput>[] = ['bankType', 'bankName', 'accountName', 'accountNumber', 'nameOfCountry', 'routeNumber'];

/** Refusals of a payee of this bank that belong under a field: a name that is not the account's, the customer's own account (decision 060). */
const payeeRefusals: ReadonlySet<string> = new Set(['payee_name_mismatch', 'own_account_payee']);

/** This page's own words for the routing number (the seed's, with "nine" spelled out). */
const routingNumberHint = "The bank's nine-digit US routing number. International transfers are not offered yet.";

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
          <BankTypeChoice registration={register('bankType', { onChange: (event) => onBankTypeChange(event.target.value) })} error={errors.bankType?.message} />
          <BankNameField registration={register('bankName')} error={errors.bankName?.message} />
          <TextField label="Account name" autoComplete="off" required error={errors.accountName?.message} {...register('accountName')} />
          <AccountNumberField registration={register('accountNumber')} error={errors.accountNumber?.message} />
          <BankCountryField registration={register('nameOfCountry')} error={errors.nameOfCountry?.message} />
          <RoutingNumberField registration={register('routeNumber')} error={errors.routeNumber?.message} hint={routingNumberHint} />
          <Button type="submit" size="lg" block loading={create.isPending}>
            Add beneficiary
          </Button>
        </form>
      </Card>
      <ErrorDialog title="The beneficiary was not added" message={dialogError} onClose={() => setDialogError(null)} />
    </div>
  );
}
