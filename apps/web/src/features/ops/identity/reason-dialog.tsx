import { useState, type ReactNode } from 'react';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import type { ButtonVariant } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmVariant?: ButtonVariant;
  pending: boolean;
  /** The server's refusal, shown in the dialog. */
  error?: string | null;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** Asks for the reason every staff action needs (3-500 characters, as the server checks) before it goes. */
export function ReasonDialog({ open, title, description, confirmLabel, confirmVariant = 'primary', pending, error, onConfirm, onClose }: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const close = () => {
    setReason('');
    setFieldError(undefined);
    onClose();
  };
  const confirm = () => {
    const checked = decisionReasonField.safeParse(reason);
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message ?? 'Give a reason');
      return;
    }
    setFieldError(undefined);
    onConfirm(checked.data);
  };
  return (
    <ConfirmDialog
      open={open}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      confirmVariant={confirmVariant}
      busy={pending}
      onConfirm={confirm}
      onCancel={close}
    >
      <TextAreaField label="Reason" rows={3} required value={reason} error={fieldError} onChange={(event) => setReason(event.target.value)} />
      {error ? (
        <p role="alert" className="ops-dialog-error">
          {error}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
