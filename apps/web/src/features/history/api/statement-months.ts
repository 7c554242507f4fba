import { useQuery } from '@tanstack/react-query';
import { statementMonthsSchema, type StatementMonths } from '@strongroom/contracts/transactions.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * `GET /api/v1/accounts/{id}/statement/months` -> the months the statement picker offers, newest
 * first, from this month back to the one the account opened (never a month before it existed).
 */
export function getStatementMonths(accountId: string): Promise<StatementMonths> {
  return apiRequest(`/accounts/${encodeURIComponent(accountId)}/statement/months`, { parse: (data) => statementMonthsSchema.parse(data) });
}

/** Asked for once an account is chosen. */
export function useStatementMonths(accountId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.statementMonths(accountId ?? ''),
    queryFn: () => getStatementMonths(accountId ?? ''),
    enabled: accountId !== undefined,
  });
}
