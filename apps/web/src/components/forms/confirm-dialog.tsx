import type { ReactNode } from 'react';
import { ActionDialog } from './action-dialog.tsx';
import { Button, type ButtonVariant } from '../ui/button.tsx';
import type { DialogProps } from '../ui/dialog.tsx';

export interface ConfirmDialogProps {
  /** Shown unless false: most owners mount the dialog only while it is asked for. */
  open?: boolean;
  title: string;
  description: ReactNode;
  /** What the confirming button says: the action itself ("Pay $20.00"), never just "OK". */
  confirmLabel: ReactNode;
  confirmVariant?: ButtonVariant;
  cancelLabel?: string;
  /** The action is under way: the dialog cannot be dismissed and Cancel is off until it ends. */
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  size?: DialogProps['size'];
  children?: ReactNode;
}

/** The confirmation before something that cannot be undone: what will happen, Cancel, and the button that does it. */
export function ConfirmDialog({
  open = true,
  title,
  description,
  confirmLabel,
  confirmVariant = 'primary',
  cancelLabel,
  busy,
  onConfirm,
  onCancel,
  size = 'md',
  children,
}: ConfirmDialogProps) {
  return (
    <ActionDialog
      open={open}
      title={title}
      description={description}
      busy={busy}
      onCancel={onCancel}
      cancelLabel={cancelLabel}
      size={size}
      action={
        <Button variant={confirmVariant} loading={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      }
    >
      {children}
    </ActionDialog>
  );
}
