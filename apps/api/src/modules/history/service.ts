import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Transaction, TransactionCategory, TransactionList, transactionListQuerySchema } from '@strongroom/contracts/transactions.ts';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { transferCodes } from '../../ledger/codes.ts';
import { AppError } from '../../platform/errors.ts';
import { centsToJson } from '../../platform/money.ts';
import { listCustomerAccounts } from '../accounts/repository.ts';
import { categoryOf, descriptionOf, visibleStatus } from '../payments/presenter.ts';
import { listLines, monthFlowsByCode, type LineCursor, type LineQuery, type LineRow, type LineSide } from './repository.ts';

export const recentTransactionCount = 5;

function encodeCursor(line: LineRow): string {
  return Buffer.from(JSON.stringify([line.created_text, line.id, line.side])).toString('base64url');
}

function decodeCursor(text: string): LineCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3) {
      const [createdText, id, side] = value as unknown[];
      if (
        typeof createdText === 'string' &&
        /^\d{4}-\d{2}-\d{2} [\d:.]+[+-]\d{2}(:\d{2})?$/.test(createdText) &&
        typeof id === 'string' &&
        /^[0-9a-f-]{36}$/.test(id) &&
        (side === 'in' || side === 'out')
      ) {
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

/** The kinds of payment that can make a line on each side; a category is a subset of one side's. */
const kindsBySide: Record<LineSide, readonly PaymentKind[]> = {
  out: ['own', 'internal', 'external', 'card', 'withdrawal'],
  in: ['own', 'internal', 'deposit', 'funding'],
};

/** The sides and kinds a category covers, worded by `categoryOf` (the seed's categories). */
function sidesOf(category: TransactionCategory | undefined): LineQuery['sides'] {
  if (category === undefined) return { out: null, in: null };
  const sides: LineQuery['sides'] = {};
  for (const side of ['out', 'in'] as const) {
    const kinds = kindsBySide[side].filter((kind) => categoryOf({ kind }, side) === category);
    if (kinds.length > 0) sides[side] = kinds;
  }
  return sides;
}

function invalidField(name: string, message: string): AppError {
  return new AppError('validation_failed', message, { fields: { [name]: message } });
}

/** A YYYY-MM-DD the calendar has (the contract checks the form only: 2024-02-30 is refused here). */
function calendarDate(name: 'from' | 'to', text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw invalidField(name, 'this date is not valid');
  }
  return text;
}

/** `q` as an ILIKE pattern: the customer's %, _ and \ are matched as themselves. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export type TransactionFilters = z.output<typeof transactionListQuerySchema>;

/**
 * `GET /transactions`: one account of the customer's, or all of them; filtered by inclusive dates
 * in the bank's time zone (`timeZone`, UTC when not given), category and a text in the description.
 * Someone else's account answers like a missing one.
 */
export async function listTransactions(db: Queryable, customerId: string, query: TransactionFilters, timeZone = 'UTC'): Promise<TransactionList> {
  const fromDate = calendarDate('from', query.from);
  const toDate = calendarDate('to', query.to);
  if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) throw invalidField('to', 'the end date is before the start date');
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const accounts = await listCustomerAccounts(db, customerId);
  let accountIds = accounts.map((account) => account.id);
  if (query.accountId !== undefined) {
    if (!accountIds.includes(query.accountId)) throw new AppError('not_found', 'No such account');
    accountIds = [query.accountId];
  }
  if (accountIds.length === 0) return { items: [], nextCursor: null };
  const lines = await listLines(db, {
    customerId,
    accountIds,
    sides: sidesOf(query.category),
    cursor,
    fromDate,
    toDate,
    timeZone,
    descriptionPattern: query.q ? containsPattern(query.q) : undefined,
    limit: query.limit + 1,
  });
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
  const recent = await listTransactions(db, customerId, { limit: recentTransactionCount }, config.bankTimeZone);
  return {
    month,
    moneyInCents: centsToJson(moneyIn),
    moneyOutCents: centsToJson(moneyOut),
    spendingByCategory: [...spending.entries()]
      .sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0))
      .map(([category, cents]) => ({ category, amountCents: centsToJson(cents) })),
    cardCount: 0,
    loanCount: 0,
    recentTransactions: recent.items,
  };
}
