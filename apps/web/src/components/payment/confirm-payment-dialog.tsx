import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
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
    <Dialog
      open={open}
      onClose={onModify}
      dismissible={!confirming}
      title={title}
      description={<p>Check the details before you confirm.</p>}
      footer={
        <>
          <Button variant="secondary" onClick={onModify} disabled={confirming}>
            Modify
          </Button>
          <Button onClick={onConfirm} loading={confirming} disabled={confirmDisabled} data-autofocus>
            Confirm
          </Button>
        </>
      }
    >
      <dl className="confirm-rows">
        {rows.map((row) => (
          <div key={row.label} className="confirm-rows__row">
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </Dialog>
  );
}
