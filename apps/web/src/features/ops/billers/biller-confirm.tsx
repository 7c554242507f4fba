import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import type { BillerChange } from './biller-form-schema.ts';

/** The last look before saving: each field that changes, from what to what, and the reason. */
export function BillerConfirm(props: {
  adding: boolean;
  changes: readonly BillerChange[];
  reason: string;
  busy: boolean;
  error: string | undefined;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { adding, changes, reason, busy, error, onBack, onConfirm } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form's button that led here is hidden now: focus goes to what is to be read.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="biller-confirm">
      <h3 ref={headingRef} tabIndex={-1}>
        {adding ? 'The new biller' : 'What changes'}
      </h3>
      {changes.length === 0 ? <p>Nothing changes: go back and change a field.</p> : null}
      <ul>
        {changes.map((change) => (
          <li key={change.label}>
            {change.label}: {change.before === null ? change.after : `${change.before} → ${change.after}`}
          </li>
        ))}
        <li>Reason: {reason}</li>
      </ul>
      {error ? (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      ) : null}
      <div className="biller-dialog__actions">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back to the form
        </Button>
        <Button onClick={onConfirm} loading={busy} disabled={changes.length === 0}>
          {adding ? 'Add the biller' : 'Save the changes'}
        </Button>
      </div>
    </div>
  );
}
