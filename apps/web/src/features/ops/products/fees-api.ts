import { useMutation, useQuery } from '@tanstack/react-query';
import { customerFeeListSchema, feeRefundResponseSchema } from '@strongroom/contracts/products.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const feesKey = (customerId: string) => ['staff', 'customers', 'fees', customerId] as const;

/** `GET /api/v1/staff/customers/{id}/fees` (`fees.refund`): the customer's fees, each with its refund. */
export function useCustomerFees(customerId: string, enabled: boolean) {
  return useQuery({
    queryKey: feesKey(customerId),
    queryFn: () => apiRequest(`/staff/customers/${encodeURIComponent(customerId)}/fees`, { parse: (data) => customerFeeListSchema.parse(data) }),
    enabled,
  });
}

/** What staff do to a fee: ask for its refund, or approve or reject a refund another asked for. */
export type FeeAction = { kind: 'refund'; feePaymentId: string } | { kind: 'approve' | 'reject'; refundId: string };

function pathOf(action: FeeAction): string {
  return action.kind === 'refund'
    ? `/staff/fees/${encodeURIComponent(action.feePaymentId)}/refund`
    : `/staff/fee-refunds/${encodeURIComponent(action.refundId)}/${action.kind}`;
}

/** `POST /staff/fees/{id}/refund`, `POST /staff/fee-refunds/{id}/approve|reject`, each `{ reason }`. */
export function useFeeAction() {
  return useMutation({
    mutationFn: ({ action, reason }: { action: FeeAction; reason: string }) =>
      apiRequest(pathOf(action), { method: 'POST', body: { reason }, parse: (data) => feeRefundResponseSchema.parse(data) }),
    // The customer's balances and history change with a refund.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff', 'customers'] }),
  });
}
