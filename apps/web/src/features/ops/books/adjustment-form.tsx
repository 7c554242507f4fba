import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { adjustmentFourEyesCents, type Adjustment } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { amountInputProps } from '../../../components/payment/amount-field.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useCreateAdjustment } from './books-api.ts';
import {
  adjustmentFieldNames,
  adjustmentFormSchema,
  type AdjustableOption,
  type AdjustmentFormInput,
  type AdjustmentFormValues,
} from './adjustment-form-schema.ts';
import { ConfirmAdjustmentDialog } from './confirm-adjustment-dialog.tsx';
import { booksRefusalInWords } from './books-words.ts';

const emptyForm: AdjustmentFormInput = { debitAccount: '', creditAccount: '', amount: '', postedOn: '', reason: '' };

/** What the answer means, in a sentence: 201 posted (on which day), 202 waiting for a second member. */
function outcomeOf(adjustment: Adjustment): string {
  const amount = formatMoney(adjustment.amountCents);
  if (adjustment.status === 'awaiting_approval')
    return `Waiting for a second approval: the ${amount} entry is recorded, and another finance member must approve it before it posts.`;
  return `Posted: ${amount}${adjustment.postedOn ? `, booked on ${formatBankDate(adjustment.postedOn)}` : ''}.`;
}

/**
 * An adjusting entry between two of the bank's own accounts (`books.adjust`): checked as the server
 * checks it, then confirmed in a dialog that says the amount and both accounts, then posted.
 */
export function AdjustmentForm({ accounts, openDay }: { accounts: readonly AdjustableOption[]; openDay: string | undefined }) {
  const create = useCreateAdjustment();
  const [asked, setAsked] = useState<AdjustmentFormValues | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<AdjustmentFormInput, unknown, AdjustmentFormValues>({
    resolver: zodResolver(adjustmentFormSchema),
    mode: 'onTouched',
    defaultValues: emptyForm,
  });
  const { errors } = formState;
  const options = accounts.map((account) => ({ value: account.key, label: `${account.name} (${account.glAccount})` }));
  const review = handleSubmit((values) => {
    create.reset();
    setOutcome(null);
    setAsked(values);
  });

  function post(values: AdjustmentFormValues) {
    create.mutate(
      {
        debitAccount: values.debitAccount,
        creditAccount: values.creditAccount,
        amountCents: values.amount,
        reason: values.reason,
        ...(values.postedOn ? { postedOn: values.postedOn } : {}),
      },
      {
        onSuccess: ({ adjustment }) => {
          setAsked(null);
          reset(emptyForm);
          setOutcome(outcomeOf(adjustment));
        },
        onError: (error) => {
          // A closed day belongs to the booked-on field; field refusals go to their fields.
          if (isApiError(error) && error.code === 'business_day_closed') {
            setAsked(null);
            setError('postedOn', { type: 'server', message: booksRefusalInWords(error) }, { shouldFocus: true });
          } else if (showServerFieldErrors(error, adjustmentFieldNames, setError, { amountCents: 'amount' })) setAsked(null);
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={review} className="books-form" aria-labelledby="adjustment-form-title">
      <h2 id="adjustment-form-title">Post an adjusting entry</h2>
      <p className="field__hint">
        Entries of {formatMoney(adjustmentFourEyesCents)} or more wait for a second finance member&rsquo;s approval. Without a date, the entry is booked on the
        open day{openDay ? ` (${formatBankDate(openDay)})` : ''}.
      </p>
      {outcome ? (
        <Notice tone="success" role="status">
          {outcome}
        </Notice>
      ) : null}
      <div className="books-form__pair">
        <SelectField
          label="Debit account"
          placeholder="Choose the account to debit"
          options={options}
          error={errors.debitAccount?.message}
          {...register('debitAccount')}
        />
        <SelectField
          label="Credit account"
          placeholder="Choose the account to credit"
          options={options}
          error={errors.creditAccount?.message}
          {...register('creditAccount')}
        />
      </div>
      <div className="books-form__pair">
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <TextField label="Booked on" type="date" optional hint="An open day; empty: the open day" error={errors.postedOn?.message} {...register('postedOn')} />
      </div>
      <TextAreaField label="Reason (kept in the audit log)" rows={3} maxLength={500} error={errors.reason?.message} {...register('reason')} />
      <div className="books-form__buttons">
        <Button type="submit">Review the entry</Button>
      </div>
      {asked ? (
        <ConfirmAdjustmentDialog
          values={asked}
          accounts={accounts}
          busy={create.isPending}
          failure={create.error ? booksRefusalInWords(create.error) : undefined}
          onConfirm={() => post(asked)}
          onClose={() => setAsked(null)}
        />
      ) : null}
    </form>
  );
}
