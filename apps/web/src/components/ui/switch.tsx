import { useId, type ReactNode } from 'react';
import './field.css';

export interface SwitchProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  /** While a change is being saved the switch shows it is busy and ignores further presses. */
  busy?: boolean;
}

/** An on/off setting (role=switch): Space or Enter toggles it, the label toggles it too. */
export function Switch({ label, description, checked, onCheckedChange, disabled = false, busy = false }: SwitchProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className="switch">
      <div className="switch__text">
        <label className="switch__label" htmlFor={id} id={`${id}-label`}>
          {label}
        </label>
        {description ? (
          <p className="switch__description" id={descriptionId}>
            {description}
          </p>
        ) : null}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={descriptionId}
        aria-busy={busy || undefined}
        disabled={disabled}
        className="switch__control"
        onClick={() => {
          if (!busy) onCheckedChange(!checked);
        }}
      >
        <span className="switch__thumb" aria-hidden="true" />
        <span className="switch__state" aria-hidden="true">
          {checked ? 'On' : 'Off'}
        </span>
      </button>
    </div>
  );
}
