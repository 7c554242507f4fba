import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { type z } from 'zod';
import { createFundingSourceRequestSchema, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { accountNumberField, routeNumberField } from '@strongroom/contracts/payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../../lib/api/get-me.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { AccountNumberField, RoutingNumberField } from '../../../components/payment/bank-account-fields.tsx';
import { ChoiceGroup } from '../../../components/payment/choice-group.tsx';
import { requiredField } from '../../../components/payment/required-field.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { useCreateFundingSource } from './api/create-funding-source.ts';

/** The contract's schema, with 'field should not be empty' first for the two number fields, as every money form. */
const linkFormSchema = createFundingSourceRequestSchema.extend({
  accountNumber: requiredField(accountNumberField),
  routeNumber: requiredField(routeNumberField),
});

type LinkFormValues = z.input<typeof linkFormSchema>;

const fieldNames: readonly Path<LinkFormValues>[] = ['accountName', 'accountNumber', 'routeNumber', 'accountType'];

const accountTypeChoices = [
  { value: 'checking', label: 'Checking' },
  { value: 'savings', label: 'Savings' },
] as const;

const unreadableAnswerMessage = 'We could not read the bank’s answer. Please look at your other banks again before you try again.';

export interface LinkFundingSourceFormProps {
  onLinked: (source: FundingSource) => void;
}

/**
 * 'Link an account': an account the customer holds at another bank, confirmed with a code (D10).
 * The holder is most often the customer, so their name is filled in to start with.
 */
export function LinkFundingSourceForm({ onLinked }: LinkFundingSourceFormProps) {
  const me = useMe();
  const link = useCreateFundingSource();
  const [errorMessage, setErrorMessage] = useState<string | null>(null);
  const user = me.data?.user;
  const defaults: LinkFormValues = {
    accountName: user ? `${user.firstName} ${user.lastName}` : '',
    accountNumber: '',
    routeNumber: '',
    accountType: 'checking',
  };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(linkFormSchema), mode: 'onTouched', defaultValues: defaults });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await link.submit(values);
    if (outcome.status === 'done') {
      reset(defaults);
      onLinked(outcome.result);
    } else if (outcome.status === 'failed' && !showServerFieldErrors(outcome.error, fieldNames, setError)) {
      setErrorMessage(outcome.error instanceof ApiError ? outcome.error.message : unreadableAnswerMessage);
    }
  });

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Link an account">
        <TextField label="Account holder name" autoComplete="name" required error={errors.accountName?.message} {...register('accountName')} />
        <ChoiceGroup legend="Account type" choices={accountTypeChoices} registration={register('accountType')} error={errors.accountType?.message} />
        <AccountNumberField registration={register('accountNumber')} error={errors.accountNumber?.message} />
        <RoutingNumberField registration={register('routeNumber')} error={errors.routeNumber?.message} hint="The other bank’s 9-digit US routing number" />
        <div className="money-form__actions">
          <Button type="submit" loading={link.isPending}>
            Link account
          </Button>
        </div>
      </form>
      <StepUpDialog {...link.dialog} />
      <ErrorDialog title="The account was not linked" message={errorMessage} onClose={() => setErrorMessage(null)} />
    </>
  );
}
