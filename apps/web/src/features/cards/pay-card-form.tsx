import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { cardPaymentRequestSchema, type Card } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps, amountTextField } from '../../components/payment/amount-field.ts';
import { invalidateMoneyQueries } from '../../components/payment/invalidate-money-queries.ts';
import { StepUpDialog } from '../../components/step-up/step-up-dialog.tsx';
import { useStepUpRequest } from '../../components/step-up/use-step-up-request.ts';
import { payCard } from './api/pay-card.ts';
import { FormOutcome } from './form-outcome.tsx';

const payCardFormSchema = cardPaymentRequestSchema.omit({ amountCents: true }).extend({ amount: amountTextField });
type PayCardValues = z.input<typeof payCardFormSchema>;

function PayCardFields({ card, accounts }: { card: Card; accounts: readonly Account[] }) {
  const queryClient = useQueryClient();
  const stepUp = useStepUpRequest((body: { fromAccountId: string; amountCents: number }, headers) => payCard(card.id, body, headers));
  const [paid, setPaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PayCardValues, unknown, z.output<typeof payCardFormSchema>>({
    resolver: zodResolver(payCardFormSchema),
    mode: 'onTouched',
    defaultValues: { fromAccountId: accounts[0]?.id ?? '', amount: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setPaid(null);
    setFailure(null);
    const outcome = await stepUp.submit({ fromAccountId: values.fromAccountId, amountCents: values.amount });
    if (outcome.status === 'done') {
      setPaid(`${formatMoney(values.amount)} paid to your card.`);
      reset({ fromAccountId: values.fromAccountId, amount: '' });
      await Promise.all([invalidateMoneyQueries(queryClient), queryClient.invalidateQueries({ queryKey: queryKeys.cards })]);
    } else if (outcome.status === 'failed') {
      if (showServerFieldErrors(outcome.error, ['fromAccountId', 'amount'], setError, paymentFieldNames)) return;
      setFailure(
        outcome.error instanceof ApiError ? outcome.error.message : 'We could not read the bank’s answer. Please look at your history before you try again.',
      );
    }
  });

  return (
    <>
      <form className="card-pay" noValidate onSubmit={onSubmit} aria-label="Pay card">
        <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <FormOutcome success={paid} failure={failure} />
        <div>
          <Button type="submit" loading={stepUp.isPending}>
            Pay card
          </Button>
        </div>
      </form>
      <StepUpDialog {...stepUp.dialog} />
    </>
  );
}

/** A credit card's balance paid from checking (`POST /cards/{id}/payments`, with an Idempotency-Key). */
export function PayCardForm({ card }: { card: Card }) {
  const accounts = useAccounts();
  const checking = accounts.data?.filter((account) => account.type === 'checking') ?? [];
  if (accounts.isPending) return null;
  if (checking.length === 0) return <p>A card is paid from a checking account; you have none open.</p>;
  return <PayCardFields card={card} accounts={checking} />;
}
