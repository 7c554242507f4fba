import type { DashboardSummary, SpendingCategory } from '@strongroom/contracts/dashboard.ts';
import { lineDescription, lineKindsOfCategory } from '@strongroom/contracts/history-line.ts';
import type { TransactionCategory, TransactionDetail, TransactionList, transactionListQuerySchema } from '@strongroom/contracts/transactions.ts';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { accountCodes, transferCodes } from '../../ledger/codes.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { centsToJson } from '../../platform/money.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { customerAccountIds, customerEarnings } from '../accounts/service.ts';
import { cardCountOf } from '../cards/service.ts';
import { loanCountOf } from '../loans/service.ts';
import { lineFactsOf, partyOfLine, presentLine } from './present-line.ts';
import {
  findLine,
  listFirstPage,
  listLines,
  monthFlowsByCode,
  paymentExists,
  type LineCursor,
  type LineQuery,
  type LineRow,
  type MonthFlowRow,
} from './repository.ts';
import { searchPatternOf, searchProbeOf } from './search-pattern.ts';
import { parseLineId, presentDetail } from './transaction-detail.ts';

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

/** The sides and kinds a category covers (contracts' history-line.ts); every line without one. */
function sidesOf(category: TransactionCategory | undefined): LineQuery['sides'] {
  return category === undefined ? { out: null, in: null } : lineKindsOfCategory(category);
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

/**
 * A text search first reads the newest lines as a page of history does, without the index: a text
 * on many lines is found there at once. Past them, it reads the lines SQL's pattern lets through
 * (`searchPatternOf`, the trigram index) a batch at a time; on both it keeps those whose
 * description, as the customer reads it, contains the text ...
 */
const searchWindowLines = 200;
const searchBatchLines = 100;
/** ... up to this many lines in one request; past that it answers what it found, with a cursor to go on from. */
const searchMaxLines = 50_000;

/** A page of lines and the line its next page starts after (none: this is the last page). */
interface LinePage {
  page: LineRow[];
  continueAfter: LineRow | undefined;
}

function cursorOf(line: LineRow): LineCursor {
  return { createdText: line.created_text, id: line.id, side: line.side };
}

/**
 * Lines whose description or other party contains `text`, whatever its case: both are worded by
 * the contracts' definition, the one the screen shows ("To Grace Landlord · Rent for May"), so a
 * search finds exactly what the customer reads, the payee's or the sender's name included
 * (docs/decisions/061-export-everything-and-search-by-party.md).
 */
async function searchLines(db: Queryable, query: LineQuery, text: string, pageSize: number): Promise<LinePage> {
  const needle = text.toLowerCase();
  const searchPattern = searchPatternOf(text);
  const found: LineRow[] = [];
  const matches = (line: LineRow) =>
    lineDescription(lineFactsOf(line), line.side).toLowerCase().includes(needle) || (partyOfLine(line)?.toLowerCase().includes(needle) ?? false);
  const window = await listLines(db, { ...query, limit: searchWindowLines });
  for (const line of window) {
    if (!matches(line)) continue;
    if (found.length === pageSize) return { page: found, continueAfter: found.at(-1) };
    found.push(line);
  }
  let lastRead = window.at(-1);
  if (window.length < searchWindowLines || !lastRead) return { page: found, continueAfter: undefined };
  let cursor = cursorOf(lastRead);
  const searchProbe = await searchProbeOf(db, text);
  for (let read = window.length; read < searchMaxLines; read += searchBatchLines) {
    const batch = await listLines(db, { ...query, cursor, searchPattern, searchProbe, limit: searchBatchLines });
    for (const line of batch) {
      if (!matches(line)) continue;
      if (found.length === pageSize) return { page: found, continueAfter: found.at(-1) };
      found.push(line);
    }
    lastRead = batch.at(-1);
    if (batch.length < searchBatchLines || !lastRead) return { page: found, continueAfter: undefined };
    cursor = cursorOf(lastRead);
  }
  return { page: found, continueAfter: lastRead };
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
  if (!query.q && cursor === null && fromDate === undefined && toDate === undefined && query.category === undefined) {
    // A first page with no filter, the page every history screen and dashboard opens with, is read
    // with the others asked for at the same moment, its accounts found by the same statement
    // (repository's `listFirstPage`).
    const first = await listFirstPage(db, { customerId, accountId: query.accountId ?? null, limit: query.limit + 1 });
    if (query.accountId !== undefined && !first.owned) throw new AppError('not_found', 'No such account');
    const page = first.lines.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page.map(presentLine), nextCursor: first.lines.length > query.limit && last ? encodeCursor(last) : null };
  }
  let accountIds = await customerAccountIds(db, customerId);
  if (query.accountId !== undefined) {
    if (!accountIds.includes(query.accountId)) throw new AppError('not_found', 'No such account');
    accountIds = [query.accountId];
  }
  if (accountIds.length === 0) return { items: [], nextCursor: null };
  const lineQuery: LineQuery = { customerId, accountIds, sides: sidesOf(query.category), cursor, fromDate, toDate, timeZone, limit: query.limit + 1 };
  let result: LinePage;
  if (query.q) {
    result = await searchLines(db, lineQuery, query.q, query.limit);
  } else {
    const lines = await listLines(db, lineQuery);
    const page = lines.slice(0, query.limit);
    result = { page, continueAfter: lines.length > query.limit ? page.at(-1) : undefined };
  }
  return { items: result.page.map(presentLine), nextCursor: result.continueAfter ? encodeCursor(result.continueAfter) : null };
}

const spendingCategoryOfCode = new Map<number, SpendingCategory>([
  [transferCodes.internalTransfer, 'Transfers'],
  [transferCodes.externalTransfer, 'Transfers'],
  [transferCodes.cardPush, 'Card payments'],
  [transferCodes.cardPurchase, 'Card payments'],
  [transferCodes.withdrawal, 'Withdrawals'],
  [transferCodes.loanRepayment, 'Loan repayments'],
  [transferCodes.cardRepayment, 'Credit card payments'],
  [transferCodes.fee, 'Fees'],
]);

/** A card push into a card's account at this bank pays a credit card; elsewhere, the code says where the money went. */
function spendingCategoryOf(flow: Pick<MonthFlowRow, 'code' | 'into_card'>): SpendingCategory {
  if (flow.code === transferCodes.cardPush && flow.into_card === true) return 'Credit card payments';
  return (flow.code === null ? undefined : spendingCategoryOfCode.get(flow.code)) ?? 'Other';
}

/**
 * `GET /dashboard`: this month's money in and out and spending by category from the ledger (D8,
 * D13), the latest history lines, the number of cards and loans, and the interest earned and fees
 * paid in the bank's month and year (accounts/earnings.ts).
 */
export async function dashboardSummary(db: Queryable, config: Pick<Config, 'bankTimeZone'>, customerId: string, clock?: Clock): Promise<DashboardSummary> {
  const flows = await monthFlowsByCode(db, customerId, config.bankTimeZone, accountCodes.card);
  let moneyIn = 0n;
  let moneyOut = 0n;
  const spending = new Map<SpendingCategory, bigint>();
  for (const flow of flows) {
    moneyIn += flow.money_in ?? 0n;
    moneyOut += flow.money_out ?? 0n;
    if (flow.code !== null && (flow.money_out ?? 0n) > 0n) {
      const category = spendingCategoryOf(flow);
      spending.set(category, (spending.get(category) ?? 0n) + (flow.money_out ?? 0n));
    }
  }
  const month = flows[0]?.month;
  if (!month) throw new Error('the month query returned no row');
  const recent = await listTransactions(db, customerId, { limit: recentTransactionCount }, config.bankTimeZone);
  const earnings = await customerEarnings(db, config, customerId, clock);
  return {
    month,
    moneyInCents: centsToJson(moneyIn),
    moneyOutCents: centsToJson(moneyOut),
    spendingByCategory: [...spending.entries()]
      .sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0))
      .map(([category, cents]) => ({ category, amountCents: centsToJson(cents) })),
    cardCount: await cardCountOf(db, customerId),
    loanCount: await loanCountOf(db, customerId),
    recentTransactions: recent.items,
    interestEarnedCents: centsToJson(earnings.interestThisMonthCents),
    interestEarnedYearCents: centsToJson(earnings.interestThisYearCents),
    feesPaidCents: centsToJson(earnings.feesThisMonthCents),
    feesPaidYearCents: centsToJson(earnings.feesThisYearCents),
  };
}

/**
 * `GET /transactions/{id}`: one line of this customer's history with everything its Details dialog
 * and receipt show. Someone else's line, an unknown one and a malformed id all answer 404 alike;
 * a look-up at a payment that exists but is not the caller's is written to the audit log.
 */
export async function transactionDetail(db: Queryable, config: Pick<Config, 'secrets'>, actor: CustomerActor, lineId: string): Promise<TransactionDetail> {
  const parsed = parseLineId(lineId);
  const row = parsed ? await findLine(db, actor.customerId, parsed.paymentId, parsed.side) : undefined;
  if (!parsed || !row) {
    if (parsed && (await paymentExists(db, parsed.paymentId))) {
      await recordAudit(db, auditEntryOf(actor, { action: 'history.line', subject: `${parsed.paymentId}:${parsed.side}`, outcome: 'denied' }));
    }
    throw new AppError('not_found', 'No such transaction');
  }
  return presentDetail(db, config.secrets.sessionSecret, row);
}
