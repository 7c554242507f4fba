import { useMutation, useQuery } from '@tanstack/react-query';
import { staffBillerListSchema, staffBillerResponseSchema, type BillerRequest } from '@strongroom/contracts/billers.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const billersKey = ['staff', 'billers'] as const;

/** `GET /api/v1/staff/billers` (`billers.manage`): every biller, active or not, with how the bank pays it. */
export function useStaffBillers() {
  return useQuery({ queryKey: billersKey, queryFn: () => apiRequest('/staff/billers', { parse: (data) => staffBillerListSchema.parse(data) }) });
}

/** `POST /api/v1/staff/billers` (a new biller, without `id`) or `PUT /api/v1/staff/billers/{id}` (the whole biller again). */
export function useSaveBiller() {
  return useMutation({
    mutationFn: ({ id, request }: { id: string | null; request: BillerRequest }) =>
      apiRequest(id === null ? '/staff/billers' : `/staff/billers/${encodeURIComponent(id)}`, {
        method: id === null ? 'POST' : 'PUT',
        body: request,
        parse: (data) => staffBillerResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billersKey }),
  });
}
