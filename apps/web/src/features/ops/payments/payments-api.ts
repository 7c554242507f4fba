import { useQuery } from '@tanstack/react-query';
import { staffPaymentListSchema } from '@strongroom/contracts/staff-payments.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';

/** `GET /api/v1/staff/payments?status=pending[&date=]`: payments waiting at the rails by expected settlement. */
export function usePendingPayments(date: string) {
  return useQuery({
    queryKey: staffQueryKeys.payments(date),
    queryFn: () =>
      apiRequest('/staff/payments', { query: { status: 'pending', date: date || undefined }, parse: (data) => staffPaymentListSchema.parse(data) }),
  });
}

/** The navigation's count: every payment pending at a rail. */
export function usePendingPaymentCount(): number | undefined {
  return usePendingPayments('').data?.total;
}

/** The download link of a day's outgoing ACH credits as a NACHA file (a plain GET: the browser saves it). */
export function achFileUrl(date: string): string {
  return apiUrl('/staff/payments/ach-file', { date });
}
