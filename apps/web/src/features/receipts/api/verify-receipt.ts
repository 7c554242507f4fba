import { useQuery } from '@tanstack/react-query';
import { receiptVerificationSchema, type ReceiptVerification } from '@strongroom/contracts/transactions.ts';
import { apiRequest, isApiError } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `GET /api/v1/receipts/verify/{reference}` (public) -> the receipt's amount, date, status, kind and
 * masked accounts, or null when the bank issued no receipt with this reference (404).
 */
export async function verifyReceipt(reference: string): Promise<ReceiptVerification | null> {
  try {
    return await apiRequest(`/receipts/verify/${encodeURIComponent(reference)}`, { parse: (data) => receiptVerificationSchema.parse(data) });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export function useReceiptVerification(reference: string) {
  return useQuery({ queryKey: queryKeys.receiptVerification(reference), queryFn: () => verifyReceipt(reference) });
}
