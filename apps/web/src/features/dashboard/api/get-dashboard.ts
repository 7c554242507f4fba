import { useQuery } from '@tanstack/react-query';
import { dashboardSummarySchema, type DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `GET /api/v1/dashboard` -> this month's money in and out, spending by category, the number of
 * cards and loans and the latest transactions, all from the ledger. The live event 'accounts'
 * makes it stale.
 */
export function getDashboardSummary(): Promise<DashboardSummary> {
  return apiRequest('/dashboard', { parse: (data) => dashboardSummarySchema.parse(data) });
}

export function useDashboardSummary() {
  return useQuery({ queryKey: queryKeys.dashboard, queryFn: getDashboardSummary });
}
