import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import type { Transaction, TransactionList } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { transferCodes } from '../../ledger/codes.ts';
import { AppError } from '../../platform/errors.ts';
import { centsToJson } from '../../platform/money.ts';
import { listCustomerAccounts } from '../accounts/repository.ts';
import { categoryOf, descriptionOf, visibleStatus } from '../payments/presenter.ts';
import { listLines, monthFlowsByCode, type LineCursor, type LineRow } from './repository.ts';

export const recentTransactionCount = 5;

function encodeCursor(line: LineRow): string {
  return Buffer.from(JSON.stringify([line.created_text, line.id, line.side])).toString('base64url');
}

function decodeCursor(text: string): LineCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3) {
      const [createdText, id, side] = value as unknown[];
      if (typeof createdText === 'string' && /^\d{4}-\d{2}-\d{2} [\d:.]+[+-]\d{2}(:\d{2})?$/.test(createdText) && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) && (side === 'in' || side === 'out')) {
        return { createdText, id, side };
      }
    }
  } catch {
    // Falls through to the error below: a cursor is opaque, and a mangled one is the caller's mistake.
  }
  throw new AppError('validation_failed', 'This cursor is not valid', { fields: { cursor: 'This cursor is not valid' } });
}

export function presentLine(line: LineRow): Transaction {
  const signed = line.side === 'out' ? -line.amount_cents : line.amount_cents;
  return {
    id: `${line.id}:${line.side}`,
    transferId: line.id,
    accountId: line.account_id,
    kind: line.kind,
    status: visibleStatus(line.status),
    amountCents: centsToJson(signed),
    description: descriptionOf(line, line.side),
    category: categoryOf(line, line.side),
    createdAt: line.created_at.toISOString(),
  };
}

/** `GET /transactions`: one account of the customer's, or all of them. Someone else's account answers like a missing one. */
export async function listTransactions(db: Queryable, customerId: string, query: { accountId?: string; cursor?: string; limit: number }): Promise<TransactionList> {
  const accounts = await listCustomerAccounts(db, customerId);
  let accountIds = accounts.map((account) => account.id);
  if (query.accountId !== undefined) {
    if (!accountIds.includes(query.accountId)) throw new AppError('not_found', 'No such account');
    accountIds = [query.accountId];
  }
  if (accountIds.length === 0) return { items: [], nextCursor: null };
  const lines = await listLines(db, accountIds, query.cursor ? decodeCursor(query.cursor) : null, query.limit + 1);
  const page = lines.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(presentLine), nextCursor: lines.length > query.limit && last ? encodeCursor(last) : null };
}

const spendingCategoryOfCode = new Map<number, DashboardSummary['spendingByCategory'][number]['category']>([
  [transferCodes.internalTransfer, 'Transfers'],
  [transferCodes.externalTransfer, 'Transfers'],
  [transferCodes.cardPush, 'Card payments'],
  [transferCodes.cardPurchase, 'Card payments'],
  [transferCodes.withdrawal, 'Withdrawals'],
]);

/**
 * `GET /dashboard`: this month's money in and out and spending by category from the ledger (D8,
 * D13), and the latest history lines. Cards and loans do not exist yet, so their counts are 0.
 */
export async function dashboardSummary(db: Queryable, config: Pick<Config, 'bankTimeZone'>, customerId: string): Promise<DashboardSummary> {
  const flows = await monthFlowsByCode(db, customerId, config.bankTimeZone);
  let moneyIn = 0n;
  let moneyOut = 0n;
  const spending = new Map<DashboardSummary['spendingByCategory'][number]['category'], bigint>();
  for (const flow of flows) {
    moneyIn += flow.money_in ?? 0n;
    moneyOut += flow.money_out ?? 0n;
    if (flow.code !== null && (flow.money_out ?? 0n) > 0n) {
      const category = spendingCategoryOfCode.get(flow.code) ?? 'Other';
      spending.set(category, (spending.get(category) ?? 0n) + (flow.money_out ?? 0n));
    }
  }
  const month = flows[0]?.month;
  if (!month) throw new Error('the month query returned no row');
  const recent = await listTransactions(db, customerId, { limit: recentTransactionCount });
  return {
    month,
    moneyInCents: centsToJson(moneyIn),
    moneyOutCents: centsToJson(moneyOut),
    spendingByCategory: [...spending.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0)).map(([category, cents]) => ({ category, amountCents: centsToJson(cents) })),
    cardCount: 0,
    loanCount: 0,
    recentTransactions: recent.items,
  };
}
