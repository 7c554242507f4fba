import { useId, type ReactNode } from 'react';
import { CircleAlert } from 'lucide-react';
import './field.css';

/**
 * The frame every form control shares: a visible label tied to the control, an optional hint, and
 * an error that is announced with the control (aria-invalid + aria-describedby), never by colour alone.
 */
export interface FieldIds {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  id?: string;
  /** Shown after the label for optional fields; required fields stay unmarked, as most are. */
  optional?: boolean;
  /** Says "(required)" after the label, for a field people take for optional (a payment's message). */
  requiredMark?: boolean;
  /**
   * Keeps a line for the error even while there is none, so what follows does not jump when a
   * message appears as the person types (sign-up's "passwords do not match").
   */
  reserveErrorSpace?: boolean;
  className?: string;
  children: (ids: FieldIds) => ReactNode;
}

/** A control's error in words, after its icon; `id` is what the control's aria-describedby names. */
export function FieldError({ id, children }: { id: string | undefined; children: ReactNode }) {
  return (
    <p className="field__error" id={id}>
      <CircleAlert aria-hidden="true" size={16} />
      <span className="field__error-text">{children}</span>
    </p>
  );
}

export function Field({ label, hint, error, id, optional = false, requiredMark = false, reserveErrorSpace = false, className, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={controlId}>
        {label}
        {optional ? <span className="field__optional"> (optional)</span> : null}
        {requiredMark ? <span className="field__optional"> (required)</span> : null}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children({ id: controlId, describedBy, invalid: Boolean(error) })}
      {error ? (
        <FieldError id={errorId}>{error}</FieldError>
      ) : reserveErrorSpace ? (
        <p className="field__error field__error--reserved" aria-hidden="true">
          <CircleAlert size={16} />
          <span className="field__error-text">&nbsp;</span>
        </p>
      ) : null}
    </div>
  );
}
