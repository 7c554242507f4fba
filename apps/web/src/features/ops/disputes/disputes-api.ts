import { useMutation, useQuery } from '@tanstack/react-query';
import {
  staffDisputeDetailSchema,
  staffDisputeListSchema,
  staffDisputeResponseSchema,
  type DisputeStatus,
  type StaffDisputeDetail,
} from '@strongroom/contracts/disputes.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const disputesKey = ['staff', 'disputes'] as const;
const listKey = (status: DisputeStatus | '') => [...disputesKey, 'list', status] as const;
const caseKey = (id: string) => [...disputesKey, 'case', id] as const;

/** `GET /api/v1/staff/disputes?status=` (`disputes.manage`): the cases, nearest deadline first, as the server orders them. */
export function useStaffDisputes(status: DisputeStatus | '') {
  return useQuery({
    queryKey: listKey(status),
    queryFn: () => apiRequest('/staff/disputes', { query: { status: status || undefined }, parse: (data) => staffDisputeListSchema.parse(data) }),
  });
}

/** `GET /api/v1/staff/disputes/{id}`: the case, its timeline with staff reasons, letters, evidence and the payments to the same payee. */
export function useStaffDispute(id: string) {
  return useQuery({
    queryKey: caseKey(id),
    queryFn: () => apiRequest(`/staff/disputes/${encodeURIComponent(id)}`, { parse: (data) => staffDisputeDetailSchema.parse(data) }),
  });
}

/** A file of the evidence; the server audits each viewing (dispute.evidence_viewed). Same origin: the staff cookie goes with it. */
export function evidenceUrl(disputeId: string, evidenceId: string): string {
  return apiUrl(`/staff/disputes/${encodeURIComponent(disputeId)}/evidence/${encodeURIComponent(evidenceId)}`);
}

/** A letter sent to the customer, as the PDF they received. */
export function letterUrl(disputeId: string, letterId: string): string {
  return apiUrl(`/staff/disputes/${encodeURIComponent(disputeId)}/letters/${encodeURIComponent(letterId)}`);
}

/** What staff do to a case; each carries the reason the audit log keeps. */
export type DisputeAction =
  | { kind: 'investigate' | 'provisional-credit' | 'approve'; body: { reason: string } }
  | { kind: 'request-information'; body: { question: string; reason: string } }
  | { kind: 'decision'; body: { decision: 'customer' | 'denied'; explanation: string; reason: string } };

const actionPaths: Record<DisputeAction['kind'], string> = {
  investigate: 'investigate',
  'provisional-credit': 'provisional-credit',
  'request-information': 'request-information',
  decision: 'decision',
  approve: 'decision/approve',
};

/**
 * `POST /api/v1/staff/disputes/{id}/investigate|provisional-credit|request-information|decision|decision/approve`:
 * 200 done, or 202 `{ awaitingApproval: true }` when a resolution waits for a second person.
 */
export function useDisputeAction(disputeId: string) {
  return useMutation({
    mutationFn: (action: DisputeAction) =>
      apiRequest(`/staff/disputes/${encodeURIComponent(disputeId)}/${actionPaths[action.kind]}`, {
        method: 'POST',
        body: action.body,
        parse: (data) => staffDisputeResponseSchema.parse(data),
      }),
    onSuccess: ({ dispute }) => queryClient.setQueryData<StaffDisputeDetail>(caseKey(disputeId), (detail) => (detail ? { ...detail, dispute } : detail)),
    // A refusal (409: someone acted first) reloads the case too, so what is offered matches its state again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: disputesKey }),
  });
}
