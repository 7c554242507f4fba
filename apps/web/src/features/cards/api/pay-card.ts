import { cardResponseSchema, type CardPaymentRequest } from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { MoneyRequestHeaders } from '../../../components/step-up/use-step-up-request.ts';

/**
 * `POST /api/v1/cards/{id}/payments` (Idempotency-Key) `{ fromAccountId, amountCents }` -> 201
 * `{ card }` with its new balances: pays what is owed on a credit card from checking. Sent through
 * `useStepUpRequest`, which makes the headers (and asks for a code if the server wants one).
 */
export function payCard(id: string, body: CardPaymentRequest, headers: MoneyRequestHeaders) {
  return apiRequest(`/cards/${encodeURIComponent(id)}/payments`, {
    method: 'POST',
    body,
    headers,
    parse: (data) => cardResponseSchema.parse(data).card,
  });
}
