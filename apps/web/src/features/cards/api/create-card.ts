import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cardResponseSchema, type CreateCardRequest } from '@strongroom/contracts/cards.ts';
import { idempotencyKeyHeader } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface CreateCardInput {
  body: CreateCardRequest;
  /** One key per submission: a retry of the same request cannot ask for two cards. */
  idempotencyKey: string;
}

/**
 * `POST /api/v1/cards` (Idempotency-Key) `{ cardType, cardNetwork, nameOnCard }` -> 201 `{ card }`,
 * awaiting approval. Refusals: 409 `no_account`, 422 `savings_balance_required`, 409 `card_pending_approval`.
 */
export function createCard({ body, idempotencyKey }: CreateCardInput) {
  return apiRequest('/cards', {
    method: 'POST',
    body,
    headers: { [idempotencyKeyHeader]: idempotencyKey },
    parse: (data) => cardResponseSchema.parse(data).card,
  });
}

export function useCreateCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCard,
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.cards }), queryClient.invalidateQueries({ queryKey: queryKeys.dashboard })]),
  });
}
