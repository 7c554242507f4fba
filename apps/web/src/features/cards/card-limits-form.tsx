import { useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { cardRules, type Card } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { amountTextField } from '../../components/payment/amount-field.ts';
import { useCardLimits } from './api/card-actions.ts';
import { FormOutcome } from './form-outcome.tsx';

const perTransactionMaximum = formatMoney(cardRules.maxPerTransactionLimitCents);
const monthlyMaximum = formatMoney(cardRules.maxMonthlyLimitCents);

/** Typed dollars in, cents out, each limit up to the bank's maximum (the contract's words). */
const limitsFormSchema = z.object({
  perTransactionLimit: amountTextField.refine(
    (cents) => cents <= cardRules.maxPerTransactionLimitCents,
    `the limit per transaction is at most ${perTransactionMaximum}`,
  ),
  monthlyLimit: amountTextField.refine((cents) => cents <= cardRules.maxMonthlyLimitCents, `the monthly limit is at most ${monthlyMaximum}`),
});
type LimitsFormValues = z.input<typeof limitsFormSchema>;

/** "2,500.00": a limit as the field shows it, without the currency sign the hint already names. */
function dollarsText(cents: number): string {
  return formatMoney(cents).replace(/^\$/, '');
}

interface LimitFieldProps {
  label: string;
  /** The bank's maximum for this limit, as money: '$10,000.00'. */
  maximum: string;
  registration: UseFormRegisterReturn;
  error: string | undefined;
}

/** One limit, typed in dollars, with the bank's maximum for it in the hint. */
function LimitField({ label, maximum, registration, error }: LimitFieldProps) {
  return (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      hint={`In dollars; the bank’s maximum is ${maximum}`}
      required
      error={error}
      {...registration}
    />
  );
}

/** The customer's spending limits, per transaction and per calendar month; an authorisation above either is declined. */
export function CardLimitsForm({ card }: { card: Card }) {
  const limits = useCardLimits();
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LimitsFormValues, unknown, z.output<typeof limitsFormSchema>>({
    resolver: zodResolver(limitsFormSchema),
    mode: 'onTouched',
    defaultValues: { perTransactionLimit: dollarsText(card.perTransactionLimitCents), monthlyLimit: dollarsText(card.monthlyLimitCents) },
  });

  const onSubmit = handleSubmit(async (values) => {
    setSaved(false);
    setFailure(null);
    try {
      await limits.mutateAsync({ id: card.id, body: { perTransactionLimitCents: values.perTransactionLimit, monthlyLimitCents: values.monthlyLimit } });
      setSaved(true);
    } catch (error) {
      const placed = showServerFieldErrors(error, ['perTransactionLimit', 'monthlyLimit'], setError, {
        perTransactionLimitCents: 'perTransactionLimit',
        monthlyLimitCents: 'monthlyLimit',
      });
      if (!placed) setFailure(error instanceof ApiError ? error.message : 'The limits were not saved. Please try again.');
    }
  });

  return (
    <form className="card-limits" noValidate onSubmit={onSubmit} aria-label="Spending limits">
      <div className="card-limits__fields">
        <LimitField
          label="Limit per transaction"
          maximum={perTransactionMaximum}
          registration={register('perTransactionLimit')}
          error={errors.perTransactionLimit?.message}
        />
        <LimitField label="Monthly limit" maximum={monthlyMaximum} registration={register('monthlyLimit')} error={errors.monthlyLimit?.message} />
      </div>
      <p className="card-limits__spent">
        Spent this month: <span className="tabular">{formatMoney(card.spentThisMonthCents)}</span> of{' '}
        <span className="tabular">{formatMoney(card.monthlyLimitCents)}</span>
      </p>
      <FormOutcome success={saved ? 'Your limits are saved.' : null} failure={failure} />
      <div>
        <Button type="submit" variant="secondary" loading={limits.isPending}>
          Save limits
        </Button>
      </div>
    </form>
  );
}
