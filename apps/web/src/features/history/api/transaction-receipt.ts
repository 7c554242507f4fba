import { apiUrl } from '../../../lib/api-client.ts';

/**
 * `GET /api/v1/transactions/{id}/receipt` -> the PDF headed TRANSACTION RECEIPT. A plain link: the
 * browser downloads it with the session cookie, and the server names the file.
 */
export function transactionReceiptUrl(id: string): string {
  return apiUrl(`/transactions/${encodeURIComponent(id)}/receipt`);
}
