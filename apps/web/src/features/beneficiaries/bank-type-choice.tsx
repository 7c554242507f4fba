import type { UseFormRegisterReturn } from 'react-hook-form';
import { CircleAlert } from 'lucide-react';
import type { BankType } from '@strongroom/contracts/beneficiaries.ts';
import '../../components/payment/payment.css';

const bankTypeChoices: readonly { value: BankType; label: string }[] = [
  { value: 'mybank', label: 'This bank' },
  { value: 'otherbank', label: 'Other bank' },
];

const bankTypeErrorId = 'bank-type-error';

/** The seed's bank type, as two large radio choices; its message when none is chosen. */
export function BankTypeChoice({ registration, error }: { registration: UseFormRegisterReturn<'bankType'>; error: string | undefined }) {
  return (
    <fieldset className={error ? 'choice-group bank-type bank-type--invalid' : 'choice-group bank-type'} aria-describedby={error ? bankTypeErrorId : undefined}>
      <legend className="field__label">Bank type</legend>
      <div className="bank-type__choices">
        {bankTypeChoices.map((choice) => (
          <label key={choice.value} className="bank-type__choice">
            <input type="radio" value={choice.value} aria-invalid={error ? true : undefined} {...registration} />
            {choice.label}
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error" id={bankTypeErrorId}>
          <CircleAlert aria-hidden="true" size={16} />
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
