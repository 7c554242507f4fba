import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { useFollowedTransfer } from '../../lib/api/get-transfer.ts';
import { invalidateMoneyQueries } from './invalidate-money-queries.ts';
import { PaymentStatusView } from './payment-status.tsx';
import './payment.css';

export interface PaymentResultDialogProps {
  payment: Payment | null;
  /**
   * The words at the top, from the payment as it is now: the seed's '{amount} transferred
   * successful', or for a deposit 'Deposit received' until it has cleared.
   */
  title: (payment: Payment) => string;
  /** Read a pending payment's status again until it settles (a deposit settles in moments). */
  follow?: boolean;
  onClose: () => void;
}

/** The success popup: its title and the payment's real status underneath, both kept current while it is open. */
export function PaymentResultDialog({ payment, title, follow = false, onClose }: PaymentResultDialogProps) {
  const queryClient = useQueryClient();
  const current = useFollowedTransfer(payment, follow);
  const changed = payment !== null && current !== null && current.status !== payment.status;

  // Balances and history changed again when the payment settled.
  useEffect(() => {
    if (changed) void invalidateMoneyQueries(queryClient);
  }, [changed, queryClient]);

  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      size="sm"
      title={current ? title(current) : ''}
      footer={
        <Button onClick={onClose} data-autofocus>
          Done
        </Button>
      }
    >
      {current ? (
        <div role="status" className="payment-result">
          <PaymentStatusView payment={current} />
        </div>
      ) : null}
    </Dialog>
  );
}
