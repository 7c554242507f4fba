import { formatDateTime } from '../../../lib/dates.ts';
import type { CustomerFee } from '@strongroom/contracts/products.ts';

/** A fee's refund in words, for the Fees panel: by word, never by colour alone. */
export function refundStateOf(fee: CustomerFee, staffId: string): string {
  const refund = fee.refund;
  if (!refund) return 'Not refunded';
  switch (refund.status) {
    case 'refunded':
      return `Refunded${refund.decidedAt ? ` ${formatDateTime(refund.decidedAt)}` : ''}`;
    case 'rejected':
      return 'Refund rejected';
    case 'awaiting_approval':
      return refund.requestedBy === staffId ? 'Awaiting a second approval (you asked)' : 'Awaiting your approval or another staff member’s';
  }
}
