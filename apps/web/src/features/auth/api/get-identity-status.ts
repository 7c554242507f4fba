import { useQuery } from '@tanstack/react-query';
import { ownIdentityStatusSchema } from '@strongroom/contracts/staff-identity.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** `GET /api/v1/onboarding/identity` -> `{ status, reason }`: why the last review was rejected, if it was. */
export function useIdentityStatus() {
  return useQuery({
    queryKey: ['onboarding', 'identity'],
    queryFn: () => apiRequest('/onboarding/identity', { parse: (data) => ownIdentityStatusSchema.parse(data) }),
    staleTime: 0,
  });
}
