import type { QueryClient } from '@tanstack/react-query';
import { staleQueriesAfterPayment } from '../../lib/query-keys.ts';

export function invalidateMoneyQueries(queryClient: QueryClient): Promise<void> {
  return Promise.all(staleQueriesAfterPayment.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}
