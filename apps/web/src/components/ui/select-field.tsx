import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { Field } from './field.tsx';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  label: ReactNode;
  options: readonly SelectOption[];
  /** A first, empty choice such as "Choose a country"; without it the first option is preselected. */
  placeholder?: string;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select: it is keyboard operable, works with every screen reader and opens the phone's picker. */
export function SelectField({ label, options, placeholder, hint, error, optional, id, className, ref, ...selectProps }: SelectFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} optional={optional} id={id} className={className}>
      {(ids) => (
        <select
          {...selectProps}
          ref={ref}
          id={ids.id}
          className="field__control field__control--select"
          aria-invalid={ids.invalid || undefined}
          aria-describedby={ids.describedBy}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
