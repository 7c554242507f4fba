import { AppError } from '../../platform/errors.ts';
import type { ConnectedAppsDependencies, FdxAccess } from '../connected-apps/service.ts';
import { monthlyStatementFileName, monthlyStatementPdf, monthlyStatements, openMonthlyStatement } from '../statements/service.ts';
import { fdxBasePath, requireConsentedAccount } from './accounts.ts';
import { statementNotFound } from './errors.ts';
import { pageLinks, pageOf, parseDateRange, parseLimit, statementPageLimits } from './paging.ts';
import type { FdxStatement } from './schemas.ts';

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * `GET /accounts/{accountId}/statements?startTime&endTime&offset&limit` (fdx:statements:read): the
 * account's monthly statements, newest first. FDX's `statementDate` is the statement's last day:
 * the end-of-day job writes the statement once that day has run, so it is the date the customer
 * can first read it. `startTime` and `endTime` select statements by that date, both inclusive.
 */
export async function listFdxStatements(
  dependencies: Pick<ConnectedAppsDependencies, 'db'>,
  access: FdxAccess,
  accountId: string,
  query: { startTime?: string; endTime?: string; offset?: string; limit?: string },
) {
  await requireConsentedAccount(dependencies, access, accountId);
  const { from, to } = parseDateRange(query.startTime, query.endTime);
  const limit = parseLimit(query.limit, statementPageLimits);
  const { items } = await monthlyStatements(dependencies.db, access.customerId, accountId);
  const chosen = items.filter((item) => (from === undefined || item.periodEnd >= from) && (to === undefined || item.periodEnd <= to));
  const page = pageOf(chosen, query.offset, limit);
  const path = `${fdxBasePath}/accounts/${encodeURIComponent(accountId)}/statements`;
  return {
    ...pageLinks(path, { startTime: query.startTime, endTime: query.endTime, limit: String(limit) }, page.nextOffset, page.totalElements),
    statements: page.items.map((item): FdxStatement => ({
      accountId,
      statementId: item.id,
      statementDate: item.periodEnd,
      description: `Monthly statement, ${monthName.format(new Date(`${item.periodStart}T00:00:00Z`))}`,
      links: [{ href: `${path}/${item.id}`, rel: 'self', action: 'GET', types: ['application/pdf'] }],
      status: 'AVAILABLE',
    })),
  };
}

/**
 * `GET /accounts/{accountId}/statements/{statementId}` (fdx:statements:read): the statement's PDF,
 * the very file the customer downloads from the bank (the statements module draws both). A
 * statement of an account the consent does not cover is 701, like the account itself.
 */
export async function openFdxStatement(
  dependencies: Pick<ConnectedAppsDependencies, 'db' | 'config'>,
  access: FdxAccess,
  accountId: string,
  statementId: string,
): Promise<{ fileName: string; pdf: AsyncGenerator<Buffer, void, undefined> }> {
  await requireConsentedAccount(dependencies, access, accountId);
  try {
    const statement = await openMonthlyStatement(dependencies.db, dependencies.config, access.customerId, accountId, statementId);
    return { fileName: monthlyStatementFileName(statement, 'pdf'), pdf: monthlyStatementPdf(statement) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw statementNotFound();
    throw error;
  }
}
