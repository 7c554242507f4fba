import { useCallback, useEffect, useState } from 'react';
import { noTransactionFilters, type TransactionFilters } from './api/get-transactions.ts';

/** Typing pauses this long before the search is sent, so one word is one request, not one per letter. */
export const searchDebounceMs = 300;

/** ISO dates compare as text; an open end is always in order. */
export function isDateRangeInOrder(filters: Pick<TransactionFilters, 'from' | 'to'>): boolean {
  return filters.from === '' || filters.to === '' || filters.from <= filters.to;
}

export interface HistoryFilterState {
  /** What the list was last asked for. */
  filters: TransactionFilters;
  /** What is in the search box now; it reaches `filters.q` after a pause in typing, or at once on Enter. */
  searchText: string;
  setSearchText: (text: string) => void;
  setFilter: <Key extends Exclude<keyof TransactionFilters, 'q'>>(key: Key, value: TransactionFilters[Key]) => void;
  searchNow: () => void;
  reset: () => void;
  isFiltered: boolean;
}

/** The history screen's filters: the search box is debounced, everything else applies at once. */
export function useHistoryFilters(): HistoryFilterState {
  const [filters, setFilters] = useState<TransactionFilters>(noTransactionFilters);
  const [searchText, setSearchText] = useState('');
  const pendingSearch = searchText.trim();

  useEffect(() => {
    if (pendingSearch === filters.q) return;
    const timer = window.setTimeout(() => setFilters((current) => ({ ...current, q: pendingSearch })), searchDebounceMs);
    return () => window.clearTimeout(timer);
  }, [pendingSearch, filters.q]);

  const setFilter = useCallback<HistoryFilterState['setFilter']>((key, value) => setFilters((current) => ({ ...current, [key]: value })), []);

  return {
    filters,
    searchText,
    setSearchText,
    setFilter,
    searchNow: () => setFilters((current) => ({ ...current, q: pendingSearch })),
    reset: () => {
      setSearchText('');
      setFilters(noTransactionFilters);
    },
    isFiltered: searchText !== '' || Object.values(filters).some((value) => value !== ''),
  };
}
