import { paymentResponseSchema, type CreateDepositRequest, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../../lib/api-client.ts';

/**
 * `POST /api/v1/deposits` `{ accountId, amountCents, reason }` with `Idempotency-Key` -> 201
 * `{ transfer }`, pending until it clears. Sent through `useStepUpRequest`, which makes the headers.
 */
export function createDeposit(body: CreateDepositRequest, headers: Readonly<Record<string, string>>): Promise<PaymentResponse> {
  return apiRequest('/deposits', { method: 'POST', body, headers, parse: (data) => paymentResponseSchema.parse(data) });
}
