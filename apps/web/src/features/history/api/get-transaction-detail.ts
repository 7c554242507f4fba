import { useQuery } from '@tanstack/react-query';
import { transactionDetailSchema, type TransactionDetail } from '@strongroom/contracts/transactions.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/transactions/{id}` (a line's id, such as `{uuid}:out`) -> the Details dialog's fields. */
export function getTransactionDetail(id: string): Promise<TransactionDetail> {
  return apiRequest(`/transactions/${encodeURIComponent(id)}`, { parse: (data) => transactionDetailSchema.parse(data) });
}

/** Asked for only while the dialog is open on a line. */
export function useTransactionDetail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.transactionDetail(id),
    queryFn: () => getTransactionDetail(id ?? ''),
    enabled: id !== null,
  });
}
