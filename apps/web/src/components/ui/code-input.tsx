import { useId, useRef, type ClipboardEvent, type KeyboardEvent, type Ref } from 'react';
import { FieldError } from './field.tsx';
import './field.css';
import './code-input.css';

export interface CodeInputProps {
  /** Names the group: "Code from the SMS". */
  label: string;
  /** One entry per box: a digit or ''. Its length is the number of boxes. */
  digits: readonly string[];
  onDigitsChange: (digits: string[]) => void;
  /** Called once every box holds a digit, with the whole code. */
  onComplete?: (code: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  /** Focus the first box on mount: the code is the only thing the page asks for. */
  autoFocus?: boolean;
  /** The group; its first input is the place to put focus back after a wrong code. */
  ref?: Ref<HTMLFieldSetElement>;
}

function digitsOf(text: string): string[] {
  return [...text.replace(/\D/g, '')];
}

/**
 * A one-time code in single-digit boxes (seed: four boxes for the phone code). Typing a digit moves
 * to the next box, Backspace in an empty box goes back and clears the one before, the arrow keys
 * move, and a pasted or autofilled code fills the boxes from the one it lands in. Every box is
 * labelled with its position and described by the group's hint and error.
 */
export function CodeInput({ label, digits, onDigitsChange, onComplete, error, hint, disabled = false, autoFocus = false, ref }: CodeInputProps) {
  const baseId = useId();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const hintId = hint ? `${baseId}-hint` : undefined;
  const errorId = error ? `${baseId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  function focusBox(index: number) {
    const box = boxes.current[Math.max(0, Math.min(index, digits.length - 1))];
    box?.focus();
    box?.select();
  }

  /** Writes `incoming` into the boxes from `start` on, then moves to the first box still empty. */
  function fillFrom(start: number, incoming: readonly string[]) {
    const next = [...digits];
    incoming.slice(0, digits.length - start).forEach((digit, offset) => {
      next[start + offset] = digit;
    });
    onDigitsChange(next);
    const firstEmpty = next.findIndex((digit) => digit === '');
    focusBox(firstEmpty === -1 ? next.length - 1 : firstEmpty);
    if (firstEmpty === -1) onComplete?.(next.join(''));
  }

  function onChange(index: number, value: string) {
    const typed = digitsOf(value);
    if (typed.length === 0) {
      const next = [...digits];
      next[index] = '';
      onDigitsChange(next);
      return;
    }
    // A box selects its digit on focus, so typing replaces it; if the caret was placed beside the
    // digit instead, the new one is whichever of the two is not the old. More digits at once come
    // from an autofilled or pasted code.
    const old = digits[index];
    if (typed.length === 2 && old) {
      fillFrom(index, [typed[0] === old ? (typed[1] ?? old) : (typed[0] ?? old)]);
      return;
    }
    fillFrom(index, typed);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      event.preventDefault();
      const next = [...digits];
      next[index - 1] = '';
      onDigitsChange(next);
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < digits.length - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    const pasted = digitsOf(event.clipboardData.getData('text'));
    event.preventDefault();
    if (pasted.length === 0) return;
    // A whole code goes into all the boxes, wherever it was pasted.
    fillFrom(pasted.length >= digits.length ? 0 : index, pasted);
  }

  return (
    <fieldset ref={ref} className="code-input">
      <legend className="code-input__legend">{label}</legend>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="code-input__boxes">
        {digits.map((digit, index) => (
          <input
            // The boxes never move or change in number; the position is their identity.
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            className="code-input__box"
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={`Digit ${index + 1} of ${digits.length}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            value={digit}
            disabled={disabled}
            autoFocus={autoFocus && index === 0}
            onFocus={(event) => event.target.select()}
            onChange={(event) => onChange(index, event.target.value)}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={(event) => onPaste(index, event)}
          />
        ))}
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </fieldset>
  );
}
