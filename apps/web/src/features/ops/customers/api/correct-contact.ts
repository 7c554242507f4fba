import { useMutation } from '@tanstack/react-query';
import { contactCorrectionResponseSchema, type ContactCorrectionRequest } from '@strongroom/contracts/contact-details.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryClient } from '../../../../lib/query-client.ts';
import { staffQueryKeys } from '../../api/staff-query-keys.ts';

/** `PUT /staff/customers/{id}/contact` `{ email?, phone?, address?, reason }` (`customers.correct`). */
export function useCorrectContact(customerId: string) {
  return useMutation({
    mutationFn: (body: ContactCorrectionRequest) =>
      apiRequest(`/staff/customers/${encodeURIComponent(customerId)}/contact`, {
        method: 'PUT',
        body,
        parse: (data) => contactCorrectionResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.customers }),
  });
}
