import { useQuery } from '@tanstack/react-query';
import { cardRevealListResponseSchema, cardTransactionListResponseSchema } from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/cards/{id}/transactions` -> `{ items }`: the card's authorisations, newest first. */
export function useCardTransactions(id: string) {
  return useQuery({
    queryKey: queryKeys.cardTransactions(id),
    queryFn: () => apiRequest(`/cards/${encodeURIComponent(id)}/transactions`, { parse: (data) => cardTransactionListResponseSchema.parse(data).items }),
  });
}

/** `GET /api/v1/cards/{id}/reveals` -> `{ items }`: "Card number viewed", when and on which device. */
export function useCardReveals(id: string) {
  return useQuery({
    queryKey: queryKeys.cardReveals(id),
    queryFn: () => apiRequest(`/cards/${encodeURIComponent(id)}/reveals`, { parse: (data) => cardRevealListResponseSchema.parse(data).items }),
  });
}
