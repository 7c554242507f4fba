import { useMutation, useQuery } from '@tanstack/react-query';
import {
  authorizationResponseSchema,
  cardTransactionListResponseSchema,
  staffCardListSchema,
  staffCardResponseSchema,
  type CardDecisionRequest,
  type CardStatus,
} from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';
import { useStatusQueue } from '../api/status-queue.ts';

/** `GET /api/v1/staff/cards?status=&cursor=` (`cards.decide`): the card requests page after page, oldest first, and how many. */
export function useStaffCards(status: CardStatus = 'pending_approval') {
  return useStatusQueue(staffQueryKeys.cardList(status), '/staff/cards', status, (data) => staffCardListSchema.parse(data));
}

/** The navigation's count: card requests waiting for a decision. */
export function usePendingCardCount(): number | undefined {
  return useStaffCards('pending_approval').data?.pages[0]?.total;
}

/** `POST /api/v1/staff/cards/{id}/decision` `{ decision, reason, creditLimitCents? }` -> `{ card }`; decided twice -> 409 already_decided. */
export function useCardDecision() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CardDecisionRequest }) =>
      apiRequest(`/staff/cards/${encodeURIComponent(id)}/decision`, { method: 'POST', body, parse: (data) => staffCardResponseSchema.parse(data).card }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.cards }),
  });
}

/** `GET /api/v1/staff/card-simulator/authorizations?cardId=` (`payments.settle`, sandbox): the card's authorisations, newest first. */
export function useCardAuthorizations(cardId: string | null) {
  return useQuery({
    queryKey: staffQueryKeys.cardAuthorizations(cardId ?? ''),
    queryFn: () =>
      apiRequest('/staff/card-simulator/authorizations', {
        query: { cardId: cardId ?? '' },
        parse: (data) => cardTransactionListResponseSchema.parse(data).items,
      }),
    enabled: cardId !== null,
  });
}

export interface SimulatedAuthorization {
  cardId: string;
  amountCents: number;
  merchantName: string;
  mcc: string;
  reason: string;
}

function refreshAuthorizations(cardId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: staffQueryKeys.cardAuthorizations(cardId) }),
    queryClient.invalidateQueries({ queryKey: staffQueryKeys.cards }),
  ]);
}

/** `POST /api/v1/staff/card-simulator/authorizations` -> 201 `{ authorization: { id, status, declineReason? } }`: as a shop's terminal would ask. */
export function useSimulateAuthorization() {
  return useMutation({
    mutationFn: (body: SimulatedAuthorization) =>
      apiRequest('/staff/card-simulator/authorizations', { method: 'POST', body, parse: (data) => authorizationResponseSchema.parse(data).authorization }),
    onSettled: (_result, _error, body) => refreshAuthorizations(body.cardId),
  });
}

/** `.../{id}/clear` `{ amountCents? }` posts the hold (for the same or a smaller amount); `.../{id}/reverse` voids it. */
export function useSettleAuthorization() {
  return useMutation({
    mutationFn: ({ id, action, amountCents, reason }: { id: string; cardId: string; action: 'clear' | 'reverse'; amountCents?: number; reason: string }) =>
      apiRequest(`/staff/card-simulator/authorizations/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        body: action === 'clear' && amountCents !== undefined ? { amountCents, reason } : { reason },
        parse: (data) => authorizationResponseSchema.parse(data).authorization,
      }),
    onSettled: (_result, _error, variables) => refreshAuthorizations(variables.cardId),
  });
}
