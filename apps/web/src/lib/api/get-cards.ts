import { useQuery } from '@tanstack/react-query';
import { cardListResponseSchema, cardResponseSchema, type Card } from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** `GET /api/v1/cards` -> `{ items }`: every card of the customer, newest first, last four digits only. */
export function getCards(): Promise<Card[]> {
  return apiRequest('/cards', { parse: (data) => cardListResponseSchema.parse(data).items });
}

/** The live events 'accounts' and 'notifications' make it stale (an approval arrives as a notification). */
export function useCards() {
  return useQuery({ queryKey: queryKeys.cards, queryFn: getCards });
}

/** `GET /api/v1/cards/{id}` -> `{ card }`; another customer's card answers 404 like a missing one. */
export function getCard(id: string): Promise<Card> {
  return apiRequest(`/cards/${encodeURIComponent(id)}`, { parse: (data) => cardResponseSchema.parse(data).card });
}

export function useCard(id: string) {
  return useQuery({ queryKey: queryKeys.card(id), queryFn: () => getCard(id) });
}
