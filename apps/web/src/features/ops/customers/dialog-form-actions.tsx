import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';

/** What a customer-care dialog is given: the action in words, and the request's state. */
export interface CustomerActionDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in a sentence, before the staff member confirms. */
  consequence: string;
  /** The button states the consequence: "Freeze Ada Lovelace". */
  confirmLabel: string;
  busy: boolean;
  error?: string | undefined;
  onClose: () => void;
}

export interface DialogFormActionsProps {
  /** Why the server refused, shown above the buttons. */
  failure?: string | null | undefined;
  busy: boolean;
  /** The button states the consequence: "Freeze Ada Lovelace". */
  confirmLabel: ReactNode;
  confirmVariant?: ButtonVariant;
  onCancel: () => void;
}

/** The end of a customer-care dialog's form: the server's refusal, Cancel, and the submit button that does it. */
export function DialogFormActions({ failure, busy, confirmLabel, confirmVariant = 'danger', onCancel }: DialogFormActionsProps) {
  return (
    <>
      {failure ? (
        <Notice tone="error" role="alert">
          {failure}
        </Notice>
      ) : null}
      <div className="customer-care__dialog-actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant={confirmVariant} loading={busy}>
          {confirmLabel}
        </Button>
      </div>
    </>
  );
}

/** The reason every staff action needs (3 to 500 characters), kept in the audit log with the action. */
export function AuditReasonField({ value, onChange, error }: { value: string; onChange: (reason: string) => void; error?: string | undefined }) {
  return (
    <TextAreaField
      label="Reason (kept in the audit log)"
      rows={3}
      maxLength={500}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
    />
  );
}
