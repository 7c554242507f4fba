import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Payment } from '@strongroom/contracts/payments.ts';
import { transferSuccessTitle } from '../../components/payment/payment-dialogs.tsx';
import { formatDate } from '../../lib/dates.ts';

/**
 * The result popup's title for a bill payment. A bill leaves through the ACH rail, so it is
 * pending when sent: it says when it arrives (the bank's expected settlement, the next business
 * day) and to whom; any other status gets the words every payment gets.
 */
export function billPaymentResultTitle(payment: Payment): string {
  if (payment.status !== 'pending') return transferSuccessTitle(payment);
  const start = `Your payment of ${formatMoney(payment.amountCents)} to ${payment.counterparty.name} is on its way`;
  return payment.expectedSettlementAt ? `${start}: it arrives by ${formatDate(payment.expectedSettlementAt)}` : start;
}
