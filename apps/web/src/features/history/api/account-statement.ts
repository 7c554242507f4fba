import type { z } from 'zod';
import type { statementFormatSchema } from '@strongroom/contracts/transactions.ts';
import { apiUrl } from '../../../lib/api-client.ts';

export type StatementFormat = z.infer<typeof statementFormatSchema>;

/**
 * `GET /api/v1/accounts/{id}/statement?from=YYYY-MM-DD&to=YYYY-MM-DD&format=pdf|csv|ofx` -> the
 * statement file (completed entries only, inclusive dates in the bank's time zone). A plain link:
 * the browser downloads it with the session cookie, and the server names the file.
 */
export function accountStatementUrl(accountId: string, period: { from: string; to: string }, format: StatementFormat): string {
  return apiUrl(`/accounts/${encodeURIComponent(accountId)}/statement`, { from: period.from, to: period.to, format });
}
