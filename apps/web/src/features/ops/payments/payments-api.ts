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

/**
 * Whether a day has outgoing ACH credits, the only entries its file holds. A full page leaves the
 * answer open (credits may be further on), so only a complete page without one says "none".
 */
export function useAchCreditsPending(date: string): boolean | undefined {
  const payments = useQuery({
    queryKey: staffQueryKeys.achPayments(date),
    queryFn: () => apiRequest('/staff/payments', { query: { status: 'pending', rail: 'ach', date }, parse: (data) => staffPaymentListSchema.parse(data) }),
  });
  if (!payments.data) return undefined;
  return payments.data.nextCursor !== null || payments.data.items.some((item) => item.rail === 'ach' && item.entry === 'credit');
}

/** The download link of a day's outgoing ACH credits as a NACHA file (a plain GET: the browser saves it), with the audit's reason. */
export function achFileUrl(date: string, reason: string): string {
  return apiUrl('/staff/payments/ach-file', { date, reason: reason.trim() });
}
