import { useQuery } from '@tanstack/react-query';
import { monthlyStatementListSchema, type MonthlyStatementFormat, type MonthlyStatementList } from '@strongroom/contracts/monthly-statements.ts';
import { apiRequest, apiUrl } from '../../../lib/api-client.ts';

/** Under the account's key, so whatever refreshes the accounts refreshes these too. */
export function monthlyStatementsKey(accountId: string) {
  return ['accounts', accountId, 'monthly-statements'] as const;
}

/** `GET /api/v1/accounts/{id}/statements` -> the account's monthly statements, newest first. */
export function getMonthlyStatements(accountId: string): Promise<MonthlyStatementList> {
  return apiRequest(`/accounts/${encodeURIComponent(accountId)}/statements`, { parse: (data) => monthlyStatementListSchema.parse(data) });
}

/** Asked for once an account is chosen. */
export function useMonthlyStatements(accountId: string | undefined) {
  return useQuery({
    queryKey: monthlyStatementsKey(accountId ?? ''),
    queryFn: () => getMonthlyStatements(accountId ?? ''),
    enabled: accountId !== undefined,
  });
}

/**
 * `GET /api/v1/accounts/{id}/statements/{statementId}?format=pdf|csv|ofx` -> the file. A plain
 * link: the browser downloads it with the session cookie (no token in the address), and the
 * server names the file.
 */
export function monthlyStatementUrl(accountId: string, statementId: string, format: MonthlyStatementFormat): string {
  return apiUrl(`/accounts/${encodeURIComponent(accountId)}/statements/${encodeURIComponent(statementId)}`, { format });
}
