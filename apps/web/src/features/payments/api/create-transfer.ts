import { paymentResponseSchema, type CreateTransferRequest, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /api/v1/transfers` with `Idempotency-Key` (and `X-Step-Up` when repeated after a step-up)
 * -> 201 `{ transfer }`, the same again for a replay. Errors: 400 `validation_failed` with `fields`,
 * 403 `step_up_required` with `challengeId`, 404 (account), 422 `insufficient_funds` or
 * `idempotency_key_reused`, 409 while the same key is still being worked on.
 * Sent through `useStepUpRequest`, which makes the headers.
 */
export function createTransfer(body: CreateTransferRequest, headers: Readonly<Record<string, string>>): Promise<PaymentResponse> {
  return apiRequest('/transfers', { method: 'POST', body, headers, parse: (data) => paymentResponseSchema.parse(data) });
}
