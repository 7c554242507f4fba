import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { fundingSourceMessages, verifyFundingSourceRequestSchema, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVerifyFundingSource } from './api/verify-funding-source.ts';
import { fundingSourceLabel } from './funding-source-words.ts';
import { WhereToFindDeposits } from './where-to-find-deposits.tsx';

/**
 * The box holds the two digits after a printed '$0.', so '7' would read as $0.7: both digits are
 * asked for ('07'), and the contract's own rule (1 to 99 cents) checks the number.
 */
export const twoDigitsMessage = 'type both digits after “$0.”, such as 07';

const centsEntry = z
  .string()
  .trim()
  .min(1, validationMessages.required)
  .regex(/^\d{2}$/, twoDigitsMessage)
  .transform(Number)
  .pipe(verifyFundingSourceRequestSchema.shape.amountsCents.element);

const verifyFormSchema = z.object({ first: centsEntry, second: centsEntry });

function triesLeft(count: number): string {
  return `${count} ${count === 1 ? 'try' : 'tries'} left.`;
}

interface CentsFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  label: string;
  error: string | undefined;
  /** The explanation the two boxes share. */
  hintId: string;
  ref?: Ref<HTMLInputElement>;
}

/** Cents after a fixed '$0.': what the customer reads on the other bank's statement, as it reads there. */
function CentsField({ label, error, hintId, ref, ...inputProps }: CentsFieldProps) {
  return (
    <Field label={label} error={error} className="cents-field">
      {(ids) => (
        <div className="cents-input">
          <span className="cents-input__prefix" aria-hidden="true">
            $0.
          </span>
          <input
            {...inputProps}
            ref={ref}
            id={ids.id}
            className="field__control cents-input__control tabular"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={2}
            aria-invalid={ids.invalid || undefined}
            aria-describedby={[hintId, ids.describedBy].filter(Boolean).join(' ')}
          />
        </div>
      )}
    </Field>
  );
}

export interface VerifyFundingSourceFormProps {
  source: FundingSource;
  /** Where the amounts are found is said here unless the page has just said it above. */
  sayWhereToFind?: boolean;
}

/** The two micro-deposits of a link that waits for them, with the tries left and the server's answer. */
export function VerifyFundingSourceForm({ source, sayWhereToFind = true }: VerifyFundingSourceFormProps) {
  const verify = useVerifyFundingSource();
  const toast = useToast();
  const hintId = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm({ resolver: zodResolver(verifyFormSchema), mode: 'onTouched', defaultValues: { first: '', second: '' } });
  const label = fundingSourceLabel(source);

  const onSubmit = handleSubmit(async ({ first, second }) => {
    setRefusal(null);
    try {
      await verify.mutateAsync({ id: source.id, amountsCents: [first, second] });
      // The form goes with the status it was for; the toast outlives it.
      toast.show(`${label} is verified. You can deposit from it now.`);
    } catch (error) {
      setRefusal(
        error instanceof ApiError
          ? (error.fields.amountsCents ?? error.message)
          : error instanceof Error
            ? error.message
            : fundingSourceMessages.amountsInvalid,
      );
      setFocus('first');
    }
  });

  return (
    <form className="verify-source" noValidate onSubmit={onSubmit} aria-label={`Verify ${label}`}>
      <fieldset className="choice-group verify-source__group">
        <legend className="verify-source__legend">Enter the two small deposits</legend>
        <p className="verify-source__hint" id={hintId}>
          The cents of each, as your statement at the other bank shows them: 07 for $0.07. In either order. {triesLeft(source.attemptsLeft)}
        </p>
        {sayWhereToFind ? <WhereToFindDeposits /> : null}
        <div className="verify-source__amounts">
          <CentsField label="First amount" hintId={hintId} error={errors.first?.message} {...register('first')} />
          <CentsField label="Second amount" hintId={hintId} error={errors.second?.message} {...register('second')} />
        </div>
      </fieldset>
      <div role="alert">
        {refusal ? (
          <Notice tone="error">
            <p>{refusal}</p>
          </Notice>
        ) : null}
      </div>
      <div>
        <Button type="submit" loading={verify.isPending}>
          Verify
        </Button>
      </div>
    </form>
  );
}
