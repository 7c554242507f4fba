import { useMutation } from '@tanstack/react-query';
import {
  heldTransferDecisionResponseSchema,
  heldTransferListSchema,
  type HeldTransferDecision,
  type HeldTransferStatus,
} from '@strongroom/contracts/staff-payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';
import { useStatusQueue } from '../api/status-queue.ts';

/** `GET /api/v1/staff/held-transfers?status=&cursor=`: the queue page after page, oldest first, and how many wait. */
export function useHeldTransfers(status: HeldTransferStatus = 'in_review') {
  return useStatusQueue(staffQueryKeys.heldTransfers(status), '/staff/held-transfers', status, (data) => heldTransferListSchema.parse(data));
}

/** The navigation's count: transfers waiting for review. */
export function useHeldTransferCount(): number | undefined {
  return useHeldTransfers('in_review').data?.pages[0]?.total;
}

/** `POST /api/v1/staff/held-transfers/{id}/decision`: 200 decided, 202 a first approval waiting for a second person. */
export function useHeldTransferDecision() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: HeldTransferDecision }) =>
      apiRequest(`/staff/held-transfers/${encodeURIComponent(id)}/decision`, {
        method: 'POST',
        body,
        parse: (data) => heldTransferDecisionResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff', 'held-transfers'] }),
  });
}
