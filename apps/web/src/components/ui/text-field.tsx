import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Field } from './field.tsx';

interface SharedProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  requiredMark?: boolean;
  reserveErrorSpace?: boolean;
}

export interface TextFieldProps extends SharedProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, optional, requiredMark, reserveErrorSpace, id, className, ref, ...inputProps }: TextFieldProps) {
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      optional={optional}
      requiredMark={requiredMark}
      reserveErrorSpace={reserveErrorSpace}
      id={id}
      className={className}
    >
      {(ids) => (
        <input {...inputProps} ref={ref} id={ids.id} className="field__control" aria-invalid={ids.invalid || undefined} aria-describedby={ids.describedBy} />
      )}
    </Field>
  );
}

export interface TextAreaFieldProps extends SharedProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'children'> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ label, hint, error, optional, id, className, ref, rows = 5, ...textAreaProps }: TextAreaFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} optional={optional} id={id} className={className}>
      {(ids) => (
        <textarea
          {...textAreaProps}
          ref={ref}
          rows={rows}
          id={ids.id}
          className="field__control field__control--multiline"
          aria-invalid={ids.invalid || undefined}
          aria-describedby={ids.describedBy}
        />
      )}
    </Field>
  );
}
