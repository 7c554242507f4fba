import { useState, type FormEvent } from 'react';
import { customerActionRequestSchema } from '@strongroom/contracts/staff-customers.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in a sentence, before the staff member confirms. */
  consequence: string;
  /** The button states the consequence: "Freeze Ada Lovelace". */
  confirmLabel: string;
  busy: boolean;
  error?: string | undefined;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** A confirmation with the reason the audit log keeps: required, 3 to 500 characters (the contract's rule). */
export function ReasonDialog({ open, title, consequence, confirmLabel, busy, error, onConfirm, onClose }: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = customerActionRequestSchema.safeParse({ reason });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    onConfirm(parsed.data.reason);
  }

  function close() {
    setReason('');
    setFieldError(undefined);
    onClose();
  }

  return (
    <Dialog open={open} onClose={close} title={title} description={consequence} dismissible={!busy}>
      <form onSubmit={submit} noValidate>
        <TextAreaField
          label="Reason (kept in the audit log)"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={fieldError}
          rows={3}
          maxLength={500}
          data-autofocus
        />
        {error ? (
          <Notice tone="error" role="alert">
            {error}
          </Notice>
        ) : null}
        <div className="customer-care__dialog-actions">
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
