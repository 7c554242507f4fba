import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { Dialog, type DialogProps } from '../ui/dialog.tsx';

export interface ActionDialogProps {
  open: boolean;
  title: string;
  /** What happens, and what does not. */
  description?: ReactNode;
  /** The action is running: the dialog stays open and the way back waits for its answer. */
  busy?: boolean;
  onCancel: () => void;
  /** The way back: 'Cancel', 'Modify', 'Keep card'. */
  cancelLabel?: string;
  /** The one button that acts. */
  action: ReactNode;
  size?: DialogProps['size'];
  children?: ReactNode;
}

/** A dialog that asks for one decision: the way back, then the button that acts. */
export function ActionDialog({ open, title, description, busy = false, onCancel, cancelLabel = 'Cancel', action, size = 'sm', children }: ActionDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      dismissible={!busy}
      size={size}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          {action}
        </>
      }
    >
      {children}
    </Dialog>
  );
}
