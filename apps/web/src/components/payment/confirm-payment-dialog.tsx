import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { FactList, FactRow } from '../ui/fact-list.tsx';
import { ActionDialog } from '../forms/action-dialog.tsx';
import './payment.css';

export interface ConfirmRow {
  label: string;
  value: ReactNode;
}

export interface ConfirmPaymentDialogProps {
  open: boolean;
  title: string;
  rows: readonly ConfirmRow[];
  /** The payment is being sent: nothing can be changed until it answers. */
  confirming: boolean;
  confirmDisabled?: boolean;
  /** Between the details and the buttons: the payee check of a transfer inside the bank. */
  children?: ReactNode;
  /** Back to the form, everything typed kept. */
  onModify: () => void;
  onConfirm: () => void;
}

/** The confirmation step (seed: it holds the entered data and offers to modify it). */
export function ConfirmPaymentDialog({ open, title, rows, confirming, confirmDisabled = false, children, onModify, onConfirm }: ConfirmPaymentDialogProps) {
  return (
    <ActionDialog
      open={open}
      onCancel={onModify}
      cancelLabel="Modify"
      busy={confirming}
      size="md"
      title={title}
      description={<p>Check the details before you confirm.</p>}
      action={
        <Button onClick={onConfirm} loading={confirming} disabled={confirmDisabled} data-autofocus>
          Confirm
        </Button>
      }
    >
      <FactList>
        {rows.map((row) => (
          <FactRow key={row.label} term={row.label}>
            {row.value}
          </FactRow>
        ))}
      </FactList>
      {children}
    </ActionDialog>
  );
}
