import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { amountInputProps } from '../../components/payment/amount-field.ts';
import { Button } from '../../components/ui/button.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { openingFormSchema, sourceOptions, type OpeningFormValues } from './opening-source.ts';

export interface FundingChoice {
  source: string;
  amount: number;
}

interface FundingStepProps {
  product: Product;
  accounts: readonly Account[];
  sources: readonly FundingSource[];
  initial: OpeningFormValues;
  onDone: (choice: FundingChoice, typed: OpeningFormValues) => void;
  onBack: () => void;
}

/** Where the opening deposit comes from (one of their accounts, or a verified bank) and how much. */
export function FundingStep({ product, accounts, sources, initial, onDone, onBack }: FundingStepProps) {
  const schema = useMemo(() => openingFormSchema(product, accounts), [product, accounts]);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors },
  } = useForm<OpeningFormValues, unknown, FundingChoice>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: initial });
  const options = sourceOptions(accounts, sources);
  const least = product.openingDepositCents;

  return (
    <form onSubmit={handleSubmit((choice) => onDone(choice, getValues()))} noValidate className="open-account__form">
      <SelectField
        label="Opening deposit from"
        placeholder="Choose an account or a linked bank"
        options={options}
        hint="A deposit from a linked bank is on its way for a few days; the account opens at once."
        required={least > 0}
        error={errors.source?.message}
        {...register('source')}
      />
      <TextField
        {...amountInputProps}
        label="Opening deposit"
        required={least > 0}
        hint={least > 0 ? `At least ${formatMoney(least)}, in dollars` : 'In dollars; you may leave it empty'}
        error={errors.amount?.message}
        {...register('amount')}
      />
      <div className="open-account__actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit">Review</Button>
      </div>
    </form>
  );
}
