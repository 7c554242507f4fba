import { Link } from 'react-router';
import type { UseFormReturn } from 'react-hook-form';
import type { UseQueryResult } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import type { Beneficiary } from '@strongroom/contracts/beneficiaries.ts';
import type { BeneficiaryList } from '../../lib/api/get-beneficiaries.ts';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import type { OtherBankChecked, OtherBankFormValues } from '../../components/payment/other-bank-schema.ts';
import { LoadingLine } from '../../components/ui/loading-line.tsx';

export interface FavouriteFieldsProps {
  form: UseFormReturn<OtherBankFormValues, unknown, OtherBankChecked>;
  favourites: UseQueryResult<BeneficiaryList>;
}

const accountTypeOptions = [
  { value: 'checking', label: 'Checking' },
  { value: 'savings', label: 'Savings' },
] as const;

function favouriteLabel(favourite: Beneficiary): string {
  return `${favourite.accountName}, ${favourite.bankName} (${favourite.accountNumber})`;
}

/**
 * The seed's 'Favorite list' mode: choosing a saved recipient fills the holder name, the
 * routing number, the country and the account type; choosing none empties them again.
 */
export function FavouriteFields({ form, favourites }: FavouriteFieldsProps) {
  const {
    register,
    setValue,
    watch,
    formState: { errors },
  } = form;
  const chosenId = watch('beneficiaryId');

  if (favourites.isPending) {
    return <LoadingLine className="money-page__loading">Loading your favorites…</LoadingLine>;
  }
  if (favourites.isError) {
    return (
      <Notice tone="error">
        <p>We could not load your favorites: {favourites.error.message}</p>
        <Button variant="secondary" size="sm" onClick={() => void favourites.refetch()} loading={favourites.isFetching}>
          <RefreshCw aria-hidden="true" size={16} />
          Try again
        </Button>
      </Notice>
    );
  }
  if (favourites.data.items.length === 0) {
    return (
      <Notice>
        <p>
          You have no favorites yet. Pay someone with ‘Add to favorites’ ticked, or <Link to="/add-beneficiaries">add a beneficiary</Link>.
        </p>
      </Notice>
    );
  }

  function fill(id: string) {
    const favourite = favourites.data?.items.find((candidate) => candidate.id === id);
    const options = { shouldDirty: true };
    setValue('accountName', favourite?.accountName ?? '', options);
    setValue('routeNumber', favourite?.routeNumber ?? '', options);
    setValue('nameOfCountry', favourite?.nameOfCountry ?? '', options);
    setValue('accountType', favourite?.accountType ?? '', options);
    setValue('toAccountNumber', favourite?.accountNumber ?? '', options);
    setValue('nameOfBank', favourite?.bankName ?? '', options);
  }

  return (
    <>
      <SelectField
        label="Favorite"
        placeholder="Choose a favorite"
        options={favourites.data.items.map((favourite) => ({ value: favourite.id, label: favouriteLabel(favourite) }))}
        required
        error={errors.beneficiaryId?.message}
        {...register('beneficiaryId', { onChange: (event: { target: { value: string } }) => fill(event.target.value) })}
      />
      <div className="money-form__pair">
        <TextField label="Holder name" autoComplete="off" required error={errors.accountName?.message} {...register('accountName')} />
        <SelectField
          label="Account type"
          placeholder="Choose the account type"
          options={accountTypeOptions}
          required
          error={errors.accountType?.message}
          {...register('accountType')}
        />
      </div>
      {chosenId ? (
        <div className="money-form__pair">
          <TextField label="Account number" readOnly {...register('toAccountNumber')} />
          <TextField label="Routing number" readOnly error={errors.routeNumber?.message} {...register('routeNumber')} />
          <TextField label="Country" readOnly {...register('nameOfCountry')} />
        </div>
      ) : null}
    </>
  );
}
