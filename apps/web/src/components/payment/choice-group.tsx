import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import './payment.css';

export interface ChoiceGroupProps {
  legend: string;
  choices: readonly { value: string; label: string }[];
  registration: UseFormRegisterReturn;
  error?: string | undefined;
}

/** A few radio choices side by side (which bank, which account type), with the message of a missing choice. */
export function ChoiceGroup({ legend, choices, registration, error }: ChoiceGroupProps) {
  const errorId = useId();
  return (
    <fieldset className="choice-group" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">{legend}</legend>
      <div className="choice-group__options">
        {choices.map((choice) => (
          <label key={choice.value} className="choice">
            <input type="radio" value={choice.value} {...registration} />
            {choice.label}
          </label>
        ))}
      </div>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
