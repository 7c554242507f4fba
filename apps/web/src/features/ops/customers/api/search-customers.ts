import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerSearchResponseSchema } from '@strongroom/contracts/staff-customers.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { staffQueryKeys } from '../../api/staff-query-keys.ts';

/** `GET /staff/customers?q=`: by name, email or account number; an empty text lists the newest customers. */
export function useCustomerSearch(q: string) {
  return useQuery({
    queryKey: staffQueryKeys.customerSearch(q),
    queryFn: () => apiRequest('/staff/customers', { query: { q: q || undefined }, parse: (data) => customerSearchResponseSchema.parse(data) }),
    placeholderData: keepPreviousData,
  });
}
