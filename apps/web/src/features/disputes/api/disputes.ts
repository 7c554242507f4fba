import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  disputeDetailSchema,
  disputeEvidenceSchema,
  disputeListSchema,
  disputeResponseSchema,
  type CreateDisputeRequest,
  type Dispute,
} from '@strongroom/contracts/disputes.ts';
import { transactionDetailSchema, type TransactionDetail } from '@strongroom/contracts/transactions.ts';
import { apiRequest, apiUrl, isApiError } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** This feature's query keys: everything under `disputes` goes stale when a report changes. */
export const disputeKeys = {
  all: ['disputes'],
  list: ['disputes', 'list'],
  detail: (id: string) => ['disputes', 'detail', id],
} as const;

/** `GET /disputes` -> the customer's reports, newest first. */
export function useDisputes() {
  return useQuery({ queryKey: disputeKeys.list, queryFn: () => apiRequest('/disputes', { parse: (data) => disputeListSchema.parse(data) }) });
}

/** `GET /disputes/{id}` -> `{ dispute, events, letters, evidence }`; another customer's answers 404. */
export function useDispute(id: string) {
  return useQuery({
    queryKey: disputeKeys.detail(id),
    queryFn: () => apiRequest(`/disputes/${encodeURIComponent(id)}`, { parse: (data) => disputeDetailSchema.parse(data) }),
  });
}

function lineDetail(lineId: string): Promise<TransactionDetail> {
  return apiRequest(`/transactions/${encodeURIComponent(lineId)}`, { parse: (data) => transactionDetailSchema.parse(data) });
}

/**
 * The transaction a report is about, as History shows it: `GET /transactions/{transferId}:out`, or
 * its line in (a deposit) when the customer has no line out of it.
 */
export function useReportedTransaction(transferId: string) {
  return useQuery({
    queryKey: queryKeys.transactionDetail(`dispute:${transferId}`),
    queryFn: async () => {
      try {
        return await lineDetail(`${transferId}:out`);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return lineDetail(`${transferId}:in`);
        throw error;
      }
    },
    enabled: transferId !== '',
    retry: false,
  });
}

/** `POST /disputes` -> 201 `{ dispute }`. */
export function createDispute(body: CreateDisputeRequest): Promise<Dispute> {
  return apiRequest('/disputes', { method: 'POST', body, parse: (data) => disputeResponseSchema.parse(data).dispute });
}

const evidenceResponseSchema = z.object({ evidence: disputeEvidenceSchema });

/** `POST /disputes/{id}/evidence` as multipart/form-data, field `file` (as identity documents are sent) -> 201 `{ evidence }`. */
export function uploadEvidence(disputeId: string, file: File) {
  const form = new FormData();
  form.set('file', file);
  return apiRequest(`/disputes/${encodeURIComponent(disputeId)}/evidence`, {
    method: 'POST',
    body: form,
    parse: (data) => evidenceResponseSchema.parse(data).evidence,
  });
}

/** Withdraw, answer the bank's question, add evidence: each refreshes every report. */
export function useDisputeActions(disputeId: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: disputeKeys.all });
  const path = `/disputes/${encodeURIComponent(disputeId)}`;
  const withdraw = useMutation({
    mutationFn: () => apiRequest(`${path}/withdraw`, { method: 'POST', body: {}, parse: (data) => disputeResponseSchema.parse(data).dispute }),
    onSettled,
  });
  const answer = useMutation({
    mutationFn: (text: string) => apiRequest(`${path}/information`, { method: 'POST', body: { text }, parse: () => undefined }),
    onSettled,
  });
  const addEvidence = useMutation({ mutationFn: (file: File) => uploadEvidence(disputeId, file), onSettled });
  return { withdraw, answer, addEvidence };
}

/** A letter's PDF: a plain link, the browser downloads it with the session cookie (as statements are). */
export function disputeLetterUrl(disputeId: string, letterId: string): string {
  return apiUrl(`/disputes/${encodeURIComponent(disputeId)}/letters/${encodeURIComponent(letterId)}`);
}

/** A file the customer sent, served back to them only. */
export function disputeEvidenceUrl(disputeId: string, evidenceId: string): string {
  return apiUrl(`/disputes/${encodeURIComponent(disputeId)}/evidence/${encodeURIComponent(evidenceId)}`);
}
