import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';

export interface SubmitWhenValidProps {
  /** The form is valid: the button turns on and the hint goes. */
  valid: boolean;
  loading: boolean;
  /** The hint's id, which the off button is described by, and its class. */
  hintId: string;
  hintClassName: string;
  /** Why the button is off, in a sentence. */
  hint: string;
  children: ReactNode;
}

/** The seed's submit button, off until every field is valid, with the reason beneath it while it is off. */
export function SubmitWhenValid({ valid, loading, hintId, hintClassName, hint, children }: SubmitWhenValidProps) {
  return (
    <>
      <Button type="submit" size="lg" block disabled={!valid} loading={loading} aria-describedby={valid ? undefined : hintId}>
        {children}
      </Button>
      {!valid ? (
        <p className={hintClassName} id={hintId}>
          {hint}
        </p>
      ) : null}
    </>
  );
}
