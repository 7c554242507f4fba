import type { z } from 'zod';
import { paymentResponseSchema, type billTransferRequestSchema, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export type PayBillRequest = z.input<typeof billTransferRequestSchema>;

/**
 * `POST /api/v1/transfers` `{ kind: 'bill', fromAccountId, billPayeeId, amountCents, message }` with
 * `Idempotency-Key` (and `X-Step-Up` when repeated after a step-up) -> 201 `{ transfer }`, pending
 * until the ACH rail settles it. The first payment to a new payee answers 403 `step_up_required`.
 * Sent through `useStepUpRequest`, which makes the headers.
 */
export function payBill(body: PayBillRequest, headers: Readonly<Record<string, string>>): Promise<PaymentResponse> {
  return apiRequest('/transfers', { method: 'POST', body, headers, parse: (data) => paymentResponseSchema.parse(data) });
}
