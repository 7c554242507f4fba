import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cardResponseSchema, type CardLimitsRequest } from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

function cardPath(id: string, action?: string): string {
  return `/cards/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;
}

/** Whatever a card action changed, the card, the list and the dashboard's tiles show it again. */
function useRefreshCards() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.cards }), queryClient.invalidateQueries({ queryKey: queryKeys.dashboard })]);
}

/** `POST /api/v1/cards/{id}/freeze` or `/unfreeze` -> `{ card }`: a frozen card's authorisations are declined. */
export function useFreezeCard() {
  const refresh = useRefreshCards();
  return useMutation({
    mutationFn: ({ id, frozen }: { id: string; frozen: boolean }) =>
      apiRequest(cardPath(id, frozen ? 'freeze' : 'unfreeze'), { method: 'POST', parse: (data) => cardResponseSchema.parse(data).card }),
    onSettled: refresh,
  });
}

/** `PUT /api/v1/cards/{id}/limits` `{ perTransactionLimitCents, monthlyLimitCents }` -> `{ card }`. */
export function useCardLimits() {
  const refresh = useRefreshCards();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: CardLimitsRequest }) =>
      apiRequest(cardPath(id, 'limits'), { method: 'PUT', body, parse: (data) => cardResponseSchema.parse(data).card }),
    onSettled: refresh,
  });
}

/** `DELETE /api/v1/cards/{id}` -> `{ card }`, closed for good. */
export function useDeleteCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(cardPath(id), { method: 'DELETE', parse: (data) => cardResponseSchema.parse(data).card }),
    onSuccess: (_nothing, id) => queryClient.removeQueries({ queryKey: queryKeys.card(id) }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.cards }), queryClient.invalidateQueries({ queryKey: queryKeys.dashboard })]),
  });
}
