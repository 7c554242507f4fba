import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  adjustmentListResponseSchema,
  adjustmentResponseSchema,
  balanceSheetSchema,
  booksAccountsResponseSchema,
  booksDaysResponseSchema,
  incomeStatementSchema,
  trialBalanceSchema,
  type adjustmentStatuses,
  type ReportName,
} from '@strongroom/contracts/books.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** Under `staff`, so signing out drops it with the rest of the console's data. */
const booksKey = ['staff', 'books'] as const;

/** `GET /api/v1/staff/books/days` (`books.read`): the last closed day, the open day, the days closed. */
export function useBooksDays() {
  return useQuery({
    queryKey: [...booksKey, 'days'],
    queryFn: () => apiRequest('/staff/books/days', { parse: (data) => booksDaysResponseSchema.parse(data) }),
  });
}

/** `GET /api/v1/staff/books/accounts` (`books.read`): the chart, and the accounts an adjusting entry may name. */
export function useBooksAccounts() {
  return useQuery({
    queryKey: [...booksKey, 'accounts'],
    queryFn: () => apiRequest('/staff/books/accounts', { parse: (data) => booksAccountsResponseSchema.parse(data) }),
    staleTime: 5 * 60_000,
  });
}

/** What a report is asked for: a day (trial balance, balance sheet) or a range of days (income statement). */
export type ReportQuery = { asOf: string } | { from: string; to: string };

/**
 * `GET /api/v1/staff/reports/{name}?asOf=D` or `?from=D&to=D`: asked only once the dates are whole
 * (a date input gives '' while it is being typed); the last figures stay on screen while the next load.
 */
function useReport<Report>(name: ReportName, query: ReportQuery, enabled: boolean, parse: (data: unknown) => Report) {
  return useQuery({
    queryKey: [...booksKey, 'report', name, query],
    queryFn: () => apiRequest(`/staff/reports/${name}`, { query, parse }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useTrialBalance(asOf: string) {
  return useReport('trial-balance', { asOf }, asOf !== '', (data) => trialBalanceSchema.parse(data));
}

export function useBalanceSheet(asOf: string) {
  return useReport('balance-sheet', { asOf }, asOf !== '', (data) => balanceSheetSchema.parse(data));
}

export function useIncomeStatement(range: { from: string; to: string }, enabled: boolean) {
  return useReport('income-statement', range, enabled, (data) => incomeStatementSchema.parse(data));
}

/** The report as a file: a same-origin link, so the staff cookie goes with it and no token is in the address. */
export function reportFileUrl(name: ReportName, query: ReportQuery, format: 'csv' | 'pdf'): string {
  return apiUrl(`/staff/reports/${name}`, { ...query, format });
}

export type AdjustmentStatus = (typeof adjustmentStatuses)[number];

/** `GET /api/v1/staff/books/adjustments?status=` (`books.read` or `books.adjust`): the adjusting entries, newest first. */
export function useAdjustments(status: AdjustmentStatus | '') {
  return useQuery({
    queryKey: [...booksKey, 'adjustments', status],
    queryFn: () =>
      apiRequest('/staff/books/adjustments', { query: { status: status || undefined }, parse: (data) => adjustmentListResponseSchema.parse(data) }),
  });
}

export interface AdjustmentRequestBody {
  debitAccount: string;
  creditAccount: string;
  amountCents: number;
  reason: string;
  postedOn?: string;
}

/** `POST /api/v1/staff/books/adjustments` (`books.adjust`): 201 posted, 202 awaiting a second approval (the adjustment's status says which). */
export function useCreateAdjustment() {
  return useMutation({
    mutationFn: (body: AdjustmentRequestBody) =>
      apiRequest('/staff/books/adjustments', { method: 'POST', body, parse: (data) => adjustmentResponseSchema.parse(data) }),
    // The reports and the list change with a posting.
    onSettled: () => queryClient.invalidateQueries({ queryKey: booksKey }),
  });
}

/** `POST /api/v1/staff/books/adjustments/{id}/decision` `{ decision, reason }`: the member who asked gets 403 four_eyes_required. */
export function useAdjustmentDecision() {
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: 'approve' | 'reject'; reason: string }) =>
      apiRequest(`/staff/books/adjustments/${encodeURIComponent(id)}/decision`, {
        method: 'POST',
        body: { decision, reason },
        parse: (data) => adjustmentResponseSchema.parse(data),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff'] }),
  });
}
