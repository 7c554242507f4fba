import { useQuery } from '@tanstack/react-query';
import { referralListSchema, referralResponseSchema, type ReferralList, type ReferralResponse } from '@strongroom/contracts/referrals.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/me/referral` -> `{ code, link }`: the customer's own code, the same every time. */
export function getReferral(): Promise<ReferralResponse> {
  return apiRequest('/me/referral', { parse: (data) => referralResponseSchema.parse(data) });
}

/** `GET /api/v1/me/referrals` -> the referrals the code brought, newest first, with their totals. */
export function getReferrals(): Promise<ReferralList> {
  return apiRequest('/me/referrals', { parse: (data) => referralListSchema.parse(data) });
}

export function useReferral() {
  return useQuery({ queryKey: queryKeys.referral, queryFn: getReferral, staleTime: Infinity });
}

export function useReferrals() {
  return useQuery({ queryKey: queryKeys.referrals, queryFn: getReferrals });
}
