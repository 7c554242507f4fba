import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useFollowedTransfer } from '../api/get-transfer.ts';
import { invalidateMoneyQueries } from './invalidate-money-queries.ts';
import { PaymentStatusView } from './payment-status.tsx';
import './payment.css';

export interface PaymentResultDialogProps {
  payment: Payment | null;
  /** The seed's success words: '{amount} transferred successful', 'Deposit was successful'. */
  title: (payment: Payment) => string;
  /** Read a pending payment's status again until it settles (a deposit settles in moments). */
  follow?: boolean;
  onClose: () => void;
}

/** The success popup: the seed's words, and the payment's real status underneath. */
export function PaymentResultDialog({ payment, title, follow = false, onClose }: PaymentResultDialogProps) {
  return (
    <Dialog
      open={payment !== null}
      onClose={onClose}
      size="sm"
      title={payment ? title(payment) : ''}
      footer={
        <Button onClick={onClose} data-autofocus>
          Done
        </Button>
      }
    >
      {payment ? <FollowedStatus key={payment.id} payment={payment} follow={follow} /> : null}
    </Dialog>
  );
}

function FollowedStatus({ payment, follow }: { payment: Payment; follow: boolean }) {
  const queryClient = useQueryClient();
  const followed = useFollowedTransfer(payment, follow);
  const current = followed.data;
  const changed = current.status !== payment.status;

  // Balances and history changed again when the payment settled.
  useEffect(() => {
    if (changed) void invalidateMoneyQueries(queryClient);
  }, [changed, queryClient]);

  return (
    <div role="status" className="payment-result">
      <PaymentStatusView payment={current} />
    </div>
  );
}
