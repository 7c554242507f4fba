import { useId, type ReactNode } from 'react';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { FieldError } from '../../components/ui/field.tsx';

export interface Choice {
  value: string;
  label: ReactNode;
  /** A second line under the label, in muted words. */
  detail?: ReactNode;
}

interface ChoiceGroupProps<Values extends FieldValues> {
  control: Control<Values>;
  name: FieldPathByValue<Values, string[]>;
  legend: ReactNode;
  hint?: ReactNode;
  choices: readonly Choice[];
}

/**
 * Checkboxes that make one list of values (the clusters, the accounts). Controlled, so a group of
 * one checkbox still gives a list, and the group's message ('choose at least one account') is read
 * with the group by a screen reader.
 */
export function ChoiceGroup<Values extends FieldValues>({ control, name, legend, hint, choices }: ChoiceGroupProps<Values>) {
  const { field, fieldState } = useController({ control, name });
  const hintId = useId();
  const errorId = useId();
  const selected: string[] = Array.isArray(field.value) ? (field.value as string[]) : [];
  const error = fieldState.error?.message;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;

  function toggle(value: string, checked: boolean) {
    const next = checked ? [...selected, value] : selected.filter((item) => item !== value);
    // Kept in the order the choices are shown, whatever order they were ticked in.
    field.onChange(choices.map((choice) => choice.value).filter((item) => next.includes(item)));
  }

  return (
    <fieldset className="consent__group" aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend className="consent__legend">{legend}</legend>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="consent__choices">
        {choices.map((choice, index) => (
          <Checkbox
            key={choice.value}
            ref={index === 0 ? field.ref : undefined}
            name={field.name}
            value={choice.value}
            checked={selected.includes(choice.value)}
            onChange={(event) => toggle(choice.value, event.target.checked)}
            onBlur={field.onBlur}
            label={
              <span className="consent__choice">
                <span>{choice.label}</span>
                {choice.detail ? <span className="consent__choice-detail">{choice.detail}</span> : null}
              </span>
            }
          />
        ))}
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </fieldset>
  );
}
