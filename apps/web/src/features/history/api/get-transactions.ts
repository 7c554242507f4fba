import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { transactionListSchema, transactionPageSize, type TransactionCategory, type TransactionList } from '@strongroom/contracts/transactions.ts';
import { apiRequest } from '../../../lib/api-client.ts';

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

/** The live event 'accounts' and every payment make this key stale (lib/live-events.ts). */
export const transactionsQueryKey = ['transactions'] as const;

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
    queryKey: [...transactionsQueryKey, 'list', filters],
    queryFn: ({ pageParam }) => getTransactions(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}
