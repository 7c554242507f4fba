import { useMutation, useQuery } from '@tanstack/react-query';
import {
  identityReviewListSchema,
  identityReviewResponseSchema,
  referralBonusResponseSchema,
  revealIdNumberResponseSchema,
  type IdentityDecisionRequest,
  type IdentityReviewStatus,
  type ReferralBonusDecisionRequest,
} from '@strongroom/contracts/staff-identity.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';
import { useStatusQueue } from '../api/status-queue.ts';

export const identityBasePath = '/staff/identity-reviews';

/** `GET /staff/identity-reviews?status=&cursor=`, page after page. */
export function useIdentityReviews(status: IdentityReviewStatus) {
  return useStatusQueue(staffQueryKeys.identityReviewList(status), identityBasePath, status, (data) => identityReviewListSchema.parse(data));
}

/** The navigation's count: reviews waiting for a decision. */
export function useWaitingIdentityCount(): number | undefined {
  return useIdentityReviews('submitted').data?.pages[0]?.total;
}

export function useIdentityReview(id: string) {
  return useQuery({
    queryKey: staffQueryKeys.identityReview(id),
    queryFn: () => apiRequest(`${identityBasePath}/${encodeURIComponent(id)}`, { parse: (data) => identityReviewResponseSchema.parse(data) }),
    retry: false,
  });
}

/** `POST /staff/identity-reviews/{id}/id-number` `{ reason }`: the full number, audited; kept only in the page's state. */
export function useRevealIdNumber(id: string) {
  return useMutation({
    mutationFn: (reason: string) =>
      apiRequest(`${identityBasePath}/${encodeURIComponent(id)}/id-number`, {
        method: 'POST',
        body: { reason },
        parse: (data) => revealIdNumberResponseSchema.parse(data),
      }),
  });
}

export function useIdentityDecision(id: string) {
  return useMutation({
    mutationFn: (body: IdentityDecisionRequest) =>
      apiRequest(`${identityBasePath}/${encodeURIComponent(id)}/decision`, {
        method: 'POST',
        body,
        parse: (data) => identityReviewResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.identityReviews }),
  });
}

/** `POST /staff/referral-bonuses/{id}/decision` `{ decision: pay | refuse, reason }`: a held bonus, decided once. */
export function useReferralBonusDecision(referralId: string) {
  return useMutation({
    mutationFn: (body: ReferralBonusDecisionRequest) =>
      apiRequest(`/staff/referral-bonuses/${encodeURIComponent(referralId)}/decision`, {
        method: 'POST',
        body,
        parse: (data) => referralBonusResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.identityReviews }),
  });
}

/** Same-origin image addresses: the staff cookie goes with them, and the server never lets them be cached. */
export function documentUrl(id: string): string {
  return `/api/v1${identityBasePath}/${encodeURIComponent(id)}/document`;
}

export function profilePhotoUrl(id: string): string {
  return `/api/v1${identityBasePath}/${encodeURIComponent(id)}/profile-photo`;
}
