import type { UseFormReturn } from 'react-hook-form';
import { isCardPurchaseLine, type DisputeReason } from '@strongroom/contracts/disputes.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { TextAreaField } from '../../components/ui/text-field.tsx';
import { EvidencePicker } from './evidence-picker.tsx';
import { ReasonChoices } from './reason-choices.tsx';
import type { ReportChecked, ReportFormValues } from './report-form-schema.ts';
import type { EvidenceChoice } from './use-evidence-choice.ts';

/** A deposit can only have come in short. */
const depositReasons: readonly DisputeReason[] = ['wrong_amount'];

/** Freezing the card and ordering another is offered for a card purchase the customer did not make. */
export function offersCardReplacement(transaction: Transaction, reason: DisputeReason | undefined): boolean {
  return reason === 'unauthorized' && isCardPurchaseLine(transaction);
}

interface ReportFieldsProps {
  transaction: Transaction;
  form: UseFormReturn<ReportFormValues, unknown, ReportChecked>;
  evidence: EvidenceChoice;
  onReview: (values: ReportChecked) => void;
}

/** The report's first step: the reason, what happened, the card (an unauthorized card charge) and the evidence. */
export function ReportFields({ transaction, form, evidence, onReview }: ReportFieldsProps) {
  const {
    register,
    watch,
    handleSubmit,
    formState: { errors },
  } = form;
  const deposit = transaction.kind === 'deposit';
  return (
    <form className="dispute-form" noValidate onSubmit={handleSubmit(onReview)}>
      <ReasonChoices registration={register('reason')} error={errors.reason?.message} reasons={deposit ? depositReasons : undefined} />
      {deposit ? <p className="dispute-form__note">For a deposit, you can tell us it came in short: less than you expected.</p> : null}
      <TextAreaField
        label="What happened?"
        hint="What you expected, what you see instead, and anything you already did (such as contacting the merchant). 10 to 2,000 characters."
        maxLength={2000}
        error={errors.description?.message}
        {...register('description')}
      />
      {offersCardReplacement(transaction, watch('reason')) ? (
        <div className="dispute-form__card">
          <Checkbox label="Freeze this card and send me a new one" {...register('replaceCard')} />
          <p className="dispute-form__note">
            Someone else may have your card’s number. We freeze the card at once, so no one can pay with it, and send you a new one with a new number. Anything
            you pay automatically with this card needs the new number.
          </p>
        </div>
      ) : null}
      <EvidencePicker choice={evidence} />
      <div className="dispute-form__actions">
        <Button type="submit">Review the report</Button>
      </div>
    </form>
  );
}
