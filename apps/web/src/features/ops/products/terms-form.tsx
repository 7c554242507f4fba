import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ProductTermsChange, StaffProduct } from '@strongroom/contracts/products.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useScheduleTerms } from './products-api.ts';
import { ConfirmTermsDialog } from './confirm-terms-dialog.tsx';
import { changeOf, formOf, termsFormSchema, type TermsForm } from './terms-form-schema.ts';
import { TierFields } from './tier-fields.tsx';

/** The terms a new change starts from: the latest scheduled, else those in force. */
function startingTerms(product: StaffProduct) {
  return product.terms.at(-1);
}

/** A product's new terms: the form, checked as the server checks it, then a confirmation before they are scheduled. */
export function TermsFormSection({
  product,
  bankDate,
  onDone,
  onCancel,
}: {
  product: StaffProduct;
  bankDate: string;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const schedule = useScheduleTerms();
  const [confirming, setConfirming] = useState<ProductTermsChange | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<TermsForm>({ resolver: zodResolver(termsFormSchema(bankDate)), mode: 'onTouched', defaultValues: formOf(startingTerms(product)) });

  const onSubmit = handleSubmit((values) => {
    schedule.reset();
    setConfirming(changeOf(values));
  });

  function confirm() {
    if (!confirming) return;
    schedule.mutate(
      { productId: product.id, change: confirming },
      {
        onSuccess: () => {
          setConfirming(null);
          onDone(`${product.name}: new terms scheduled from ${confirming.effectiveFrom}.`);
        },
      },
    );
  }

  return (
    <section aria-labelledby="terms-form-title" className="terms-form">
      <h2 id="terms-form-title">Schedule a change to {product.name}</h2>
      <form noValidate onSubmit={onSubmit} className="ops-form">
        <TextField
          label="Takes effect on"
          type="date"
          required
          min={bankDate}
          hint={`After the bank's date, ${bankDate}`}
          error={errors.effectiveFrom?.message}
          {...register('effectiveFrom')}
        />
        <TextField label="Monthly fee ($)" inputMode="decimal" required error={errors.monthlyFee?.message} {...register('monthlyFee')} />
        <TextField
          label="Fee waived with a minimum daily balance of ($)"
          optional
          hint="Leave empty for no such waiver"
          inputMode="decimal"
          error={errors.waiverMinDailyBalance?.message}
          {...register('waiverMinDailyBalance')}
        />
        <TextField
          label="Fee waived with deposits in the month of ($)"
          optional
          hint="Leave empty for no such waiver"
          inputMode="decimal"
          error={errors.waiverMonthlyDeposits?.message}
          {...register('waiverMonthlyDeposits')}
        />
        <TextField label="Opening deposit ($)" inputMode="decimal" required error={errors.openingDeposit?.message} {...register('openingDeposit')} />
        <TierFields control={control} register={register} errors={errors} />
        <TextField label="Reason (kept in the audit log)" required error={errors.reason?.message} {...register('reason')} />
        <div className="terms-confirm__actions">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Review the change</Button>
        </div>
      </form>
      <ConfirmTermsDialog
        productName={product.name}
        change={confirming}
        busy={schedule.isPending}
        error={schedule.error?.message}
        onConfirm={confirm}
        onClose={() => setConfirming(null)}
      />
    </section>
  );
}
