import { paymentResponseSchema, type CreateWithdrawalRequest, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../../lib/api-client.ts';

/**
 * `POST /api/v1/withdrawals` (the seed's nine fields, `fromAccountId` and `amountCents`) with
 * `Idempotency-Key` -> 201 `{ transfer }`. Asks for a step-up first (403 `step_up_required`);
 * sent through `useStepUpRequest`, which handles it and makes the headers.
 */
export function createWithdrawal(body: CreateWithdrawalRequest, headers: Readonly<Record<string, string>>): Promise<PaymentResponse> {
  return apiRequest('/withdrawals', { method: 'POST', body, headers, parse: (data) => paymentResponseSchema.parse(data) });
}
