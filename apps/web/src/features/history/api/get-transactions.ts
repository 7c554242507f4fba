import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { transactionListSchema, transactionPageSize, type TransactionCategory, type TransactionList } from '@strongroom/contracts/transactions.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** What the history screen filters by; an empty string means "any". */
export interface TransactionFilters {
  accountId: string;
  /** YYYY-MM-DD, inclusive, in the bank's time zone. */
  from: string;
  to: string;
  category: TransactionCategory | '';
  /** Searched in descriptions, case insensitive. */
  q: string;
}

export const noTransactionFilters: TransactionFilters = { accountId: '', from: '', to: '', category: '', q: '' };

/**
 * `GET /api/v1/transactions?accountId&from&to&category&q&cursor&limit` -> `{ items, nextCursor }`,
 * newest first. The cursor is only valid with the filters it came with; empty filters are left out.
 */
export function getTransactions(filters: TransactionFilters, cursor: string | undefined): Promise<TransactionList> {
  return apiRequest('/transactions', {
    query: { ...filters, q: filters.q.trim(), cursor, limit: transactionPageSize.default },
    parse: (data) => transactionListSchema.parse(data),
  });
}

/** One page at a time ('Load more'); while new filters load, the rows of the old ones stay in view. */
export function useTransactions(filters: TransactionFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.transactionList(filters),
    queryFn: ({ pageParam }) => getTransactions(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}
