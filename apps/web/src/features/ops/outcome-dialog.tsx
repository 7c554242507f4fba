import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Notice } from '../../components/ui/notice.tsx';

export interface OutcomeDialogProps {
  title: ReactNode;
  /** Said until the decision is made: that it cannot be undone, that the customer is told. */
  description: string;
  /** What was done, once it is: it replaces the form, and Done replaces Cancel and the action. */
  outcome: ReactNode;
  confirmLabel: ReactNode;
  confirmVariant: ButtonVariant;
  busy: boolean;
  onConfirm: () => void;
  /** Esc and the close button. */
  onClose: () => void;
  onCancel?: () => void;
  onDone?: () => void;
  /** The form: the reason and whatever else the decision needs. */
  children: ReactNode;
}

/** A staff decision's confirmation: the form and the action, then what was done and Done. */
export function OutcomeDialog({
  title,
  description,
  outcome,
  confirmLabel,
  confirmVariant,
  busy,
  onConfirm,
  onClose,
  onCancel = onClose,
  onDone = onClose,
  children,
}: OutcomeDialogProps) {
  const decided = outcome !== null && outcome !== undefined && outcome !== '';
  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!busy}
      title={title}
      description={decided ? undefined : description}
      footer={
        decided ? (
          <Button onClick={onDone}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant={confirmVariant} loading={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </>
        )
      }
    >
      {decided ? (
        <Notice tone="success" role="status">
          {outcome}
        </Notice>
      ) : (
        children
      )}
    </Dialog>
  );
}
