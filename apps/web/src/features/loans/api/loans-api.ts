import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  loanDetailResponseSchema,
  loanListResponseSchema,
  loanOfferResponseSchema,
  loanRepaymentResponseSchema,
  loanResponseSchema,
  type LoanApplicationRequest,
  type LoanRepaymentRequest,
} from '@strongroom/contracts/loans.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';
import { staleQueriesAfterPayment, queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/loans` -> `{ items }`: every loan and application of the signed-in customer. */
export function useLoans() {
  return useQuery({
    queryKey: queryKeys.loans,
    queryFn: () => apiRequest('/loans', { parse: (data) => loanListResponseSchema.parse(data).items }),
  });
}

/** `GET /api/v1/loans/{id}` -> `{ loan, schedule, disclosure }`; someone else's id answers 404 like a missing one. */
export function useLoan(id: string) {
  return useQuery({
    queryKey: queryKeys.loan(id),
    queryFn: () => apiRequest(`/loans/${encodeURIComponent(id)}`, { parse: (data) => loanDetailResponseSchema.parse(data) }),
    // A 404 stays a 404: asking again would only delay the not-found state.
    retry: false,
  });
}

/**
 * `POST /api/v1/loans` with `Idempotency-Key` -> 201 `{ loan }`; 409 `loan_application_open` while
 * another application waits for a decision. The key is the caller's, one per submission.
 */
export function useApplyForLoan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: LoanApplicationRequest; idempotencyKey: string }) =>
      apiRequest('/loans', {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
        parse: (data) => loanResponseSchema.parse(data).loan,
      }),
    // A refusal for an open application also means the list is out of date: ask again either way.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.loans }),
  });
}

/**
 * `POST /api/v1/loans/{id}/repayments` `{ fromAccountId, amountCents }` with `Idempotency-Key` -> 201
 * `{ loan, schedule, disclosure, transferId }`: pays principal first. The answer is the loan page's
 * new state, shown at once; balances and history are asked for again.
 */
export function useLoanRepayment(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: LoanRepaymentRequest; idempotencyKey: string }) =>
      apiRequest(`/loans/${encodeURIComponent(id)}/repayments`, {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
        parse: (data) => loanRepaymentResponseSchema.parse(data),
      }),
    onSuccess: ({ loan, schedule, disclosure }) => client.setQueryData(queryKeys.loan(id), { loan, schedule, disclosure }),
    onSettled: () =>
      Promise.all([queryKeys.loans, ...staleQueriesAfterPayment].map((queryKey) => client.invalidateQueries({ queryKey }))).then(() => undefined),
  });
}

/**
 * `POST /api/v1/loans/{id}/accept` with `Idempotency-Key` -> 200 `{ loan, schedule, disclosure }`:
 * the offer is taken and the money paid into checking (`active`); a repeat of the key answers the
 * same and pays once. 409 `offer_expired` after the window, 409 `already_decided` once answered.
 */
export function useAcceptLoanOffer(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey }: { idempotencyKey: string }) =>
      apiRequest(`/loans/${encodeURIComponent(id)}/accept`, {
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        parse: (data) => loanOfferResponseSchema.parse(data),
      }),
    onSuccess: (detail) => client.setQueryData(queryKeys.loan(id), detail),
    onSettled: () =>
      Promise.all([queryKeys.loan(id), queryKeys.loans, ...staleQueriesAfterPayment].map((queryKey) => client.invalidateQueries({ queryKey }))).then(
        () => undefined,
      ),
  });
}

/** `POST /api/v1/loans/{id}/decline` -> 200 `{ loan, schedule, disclosure }` (`declined`); nothing is paid. */
export function useDeclineLoanOffer(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(`/loans/${encodeURIComponent(id)}/decline`, { method: 'POST', parse: (data) => loanOfferResponseSchema.parse(data) }),
    onSuccess: (detail) => client.setQueryData(queryKeys.loan(id), detail),
    onSettled: () => Promise.all([queryKeys.loan(id), queryKeys.loans].map((queryKey) => client.invalidateQueries({ queryKey }))).then(() => undefined),
  });
}

export type ScheduleFormat = 'pdf' | 'csv';

/** `GET /api/v1/loans/{id}/schedule.pdf|csv`: a plain link, downloaded with the session cookie; the server names the file. */
export function loanScheduleUrl(id: string, format: ScheduleFormat): string {
  return apiUrl(`/loans/${encodeURIComponent(id)}/schedule.${format}`);
}
