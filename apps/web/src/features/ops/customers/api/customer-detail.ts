import { useQuery } from '@tanstack/react-query';
import { customerDetailSchema } from '@strongroom/contracts/staff-customers.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { staffQueryKeys } from '../../api/staff-query-keys.ts';

/** `GET /staff/customers/{id}`: everything about one customer that staff need on one screen. */
export function useCustomerDetail(id: string) {
  return useQuery({
    queryKey: staffQueryKeys.customer(id),
    queryFn: () => apiRequest(`/staff/customers/${encodeURIComponent(id)}`, { parse: (data) => customerDetailSchema.parse(data) }),
    retry: false,
  });
}
