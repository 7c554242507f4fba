import { skipToken, useQuery } from '@tanstack/react-query';
import { paymentResponseSchema, type Payment, type PaymentResponse } from '@strongroom/contracts/payments.ts';
import { apiRequest } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** How often a pending payment's status is read again while its result is on screen. */
export const followIntervalMs = 2_000;
/** A rail that settles in seconds (sandbox) answers within this many reads; a slower one shows in history. */
export const followMaxReads = 30;

/** `GET /api/v1/transfers/{id}` -> `{ transfer }`. */
export function getTransfer(id: string): Promise<PaymentResponse> {
  return apiRequest(`/transfers/${encodeURIComponent(id)}`, { parse: (data) => paymentResponseSchema.parse(data) });
}

/**
 * The payment as the server last told it, starting from the answer that created it; while it is
 * `pending` and `follow` is on, it is read again every `followIntervalMs`, at most `followMaxReads`
 * times. No payment, nothing read: a result popup calls this while it is closed too.
 */
export function useFollowedTransfer(initial: Payment | null, follow: boolean): Payment | null {
  const followed = useQuery({
    queryKey: queryKeys.transfer(initial?.id),
    queryFn: initial ? () => getTransfer(initial.id) : skipToken,
    initialData: initial ? { transfer: initial } : undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) =>
      follow && query.state.data?.transfer.status === 'pending' && query.state.dataUpdateCount < followMaxReads ? followIntervalMs : false,
    select: (data) => data.transfer,
  });
  return initial ? (followed.data ?? initial) : null;
}
