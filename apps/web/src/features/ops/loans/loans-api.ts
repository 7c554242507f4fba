import { useMutation } from '@tanstack/react-query';
import { staffLoanListSchema, staffLoanResponseSchema, type LoanDecisionRequest, type LoanStatus } from '@strongroom/contracts/loans.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';
import { useStatusQueue } from '../api/status-queue.ts';

export const staffLoansPath = '/staff/loans';

/** `GET /api/v1/staff/loans?status=&cursor=` (loans.decide): applications page after page, and how many there are. */
export function useStaffLoans(status: LoanStatus) {
  return useStatusQueue(staffQueryKeys.loanList(status), staffLoansPath, status, (data) => staffLoanListSchema.parse(data));
}

/** The navigation's count: applications waiting for a decision. */
export function useSubmittedLoanCount(): number | undefined {
  return useStaffLoans('submitted').data?.pages[0]?.total;
}

/**
 * `POST /api/v1/staff/loans/{id}/decision`: approve with amount, APR (basis points) and term, or
 * reject, each with a reason; 409 `already_decided` when someone was quicker. An approval is an
 * offer (`offered`) the customer accepts or declines; every list of loans is asked for again afterwards.
 */
export function useLoanDecision() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LoanDecisionRequest }) =>
      apiRequest(`${staffLoansPath}/${encodeURIComponent(id)}/decision`, { method: 'POST', body, parse: (data) => staffLoanResponseSchema.parse(data).loan }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.loans }),
  });
}
