import { useState, type FormEvent } from 'react';
import { customerActionRequestSchema } from '@strongroom/contracts/staff-customers.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { DialogFormActions, type CustomerActionDialogProps } from './dialog-form-actions.tsx';

export interface ReasonDialogProps extends CustomerActionDialogProps {
  onConfirm: (reason: string) => void;
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
        <DialogFormActions failure={error} busy={busy} confirmLabel={confirmLabel} onCancel={close} />
      </form>
    </Dialog>
  );
}
