import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { disputeReasonLabels, disputeReasons, type DisputeReason } from '@strongroom/contracts/disputes.ts';
import { FieldError } from '../../components/ui/field.tsx';
import '../../components/payment/payment.css';

/** What went wrong: one radio a reason, one under the other (they are sentences), and the message of a missing choice. */
export function ReasonChoices({
  registration,
  error,
  reasons = disputeReasons,
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  reasons?: readonly DisputeReason[];
}) {
  const errorId = useId();
  return (
    <fieldset className="dispute-reasons" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="field__label">What went wrong?</legend>
      <div className="dispute-reasons__options">
        {reasons.map((reason) => (
          <label key={reason} className="choice">
            <input type="radio" value={reason} {...registration} />
            {disputeReasonLabels[reason]}
          </label>
        ))}
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </fieldset>
  );
}
