import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { FieldError } from './field.tsx';
import './field.css';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'children'> {
  label: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, error, id, className, ref, ...inputProps }: CheckboxProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className={['checkbox', className ?? ''].filter(Boolean).join(' ')}>
      <div className="checkbox__row">
        <input
          {...inputProps}
          ref={ref}
          id={controlId}
          type="checkbox"
          className="checkbox__control"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
        />
        <label className="checkbox__label" htmlFor={controlId}>
          {label}
        </label>
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
