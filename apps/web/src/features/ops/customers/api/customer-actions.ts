import { useMutation } from '@tanstack/react-query';
import { endSessionsResponseSchema, freezeResponseSchema, type CustomerActionRequest, type FreezeRequest } from '@strongroom/contracts/staff-customers.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryClient } from '../../../../lib/query-client.ts';
import { staffQueryKeys } from '../../api/staff-query-keys.ts';

/**
 * What staff can do to a customer, each with a reason: end one session or all, freeze (with the
 * customer's message too), unfreeze.
 */
export type CustomerAction = { kind: 'end-session'; sessionId: string } | { kind: 'end-all' } | { kind: 'freeze' } | { kind: 'unfreeze' };

function pathOf(customerId: string, action: CustomerAction): string {
  const base = `/staff/customers/${encodeURIComponent(customerId)}`;
  switch (action.kind) {
    case 'end-session':
      return `${base}/sessions/${encodeURIComponent(action.sessionId)}/end`;
    case 'end-all':
      return `${base}/sessions/end-all`;
    case 'freeze':
      return `${base}/freeze`;
    case 'unfreeze':
      return `${base}/unfreeze`;
  }
}

export function useCustomerAction(customerId: string) {
  return useMutation({
    mutationFn: ({ action, body }: { action: CustomerAction; body: CustomerActionRequest | FreezeRequest }) =>
      apiRequest(pathOf(customerId, action), {
        method: 'POST',
        body,
        parse: (data) => (action.kind === 'freeze' || action.kind === 'unfreeze' ? freezeResponseSchema.parse(data) : endSessionsResponseSchema.parse(data)),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.customers }),
  });
}
