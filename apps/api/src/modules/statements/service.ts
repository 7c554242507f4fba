import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { assert } from '../../ledger/assert.ts';
import { normalSideOfCode } from '../../ledger/codes.ts';
import { AppError } from '../../platform/errors.ts';
import {
  findStatementAccount,
  listStatementMonths,
  readLedgerSnapshot,
  readTransferBatch,
  sumPostedSinceChunk,
  type StatementTransferRow,
} from './repository.ts';
import { describeTransfer } from './words.ts';
import { statementBatchSize } from './batch-size.ts';
import { statementMaxDays, statementMonthsOffered, type StatementMonths } from '@strongroom/contracts/transactions.ts';

/** What other modules' downloads reuse: CSV cells a spreadsheet will not run, and text the PDF's standard font can print. */
export { csvField, guardFormula, statementCsv } from './csv.ts';
export { standardFontText } from './pdf.ts';
/** The end-of-day job's cycle close tells the customer of each monthly statement it writes (modules/end-of-day). */
export { notifyStatementReady, type ReadyStatement } from './monthly-notices.ts';
/** The monthly statements as the FDX resource API lists them and serves their PDF, the customer's own file (modules/fdx). */
export { monthlyStatementFileName, monthlyStatements, openMonthlyStatement } from './monthly-service.ts';
export { monthlyStatementPdf } from './monthly-pdf.ts';

/** A statement covers at most this many days: a leap year, from 1 January to 31 December. */
/** Lines are read and written this many at a time (batch-size.ts). */
export { statementBatchSize };
/** The opening balance walks back over the account's transfers this many at a time. */
const openingBalanceChunkSize = 10_000;
/** 100 million transfers on one account: more is a defect, not a customer. */
const openingBalanceMaxChunks = 10_000;
/**
 * A transfer is dated by its transaction's start (now() in PostgreSQL) but ordered by a sequence
 * drawn later, under the account's lock; a ledger transaction lasts milliseconds, so dates run out
 * of sequence order by far less than this. The walks over the account stop only once they have
 * passed a date boundary by this much (docs/decisions/018-statements.md).
 */
export const ledgerDateSkewLimitSeconds = 3_600;

export interface StatementLine {
  /** The payment's id: the `transfer.id` its request answered. */
  transferId: string;
  /** The posting date in the bank's time zone, YYYY-MM-DD. */
  date: string;
  postedAt: Date;
  /** The posting time in the bank's time zone (YYYYMMDDHHMMSS.XXX) and its offset east of UTC. */
  localStamp: string;
  utcOffsetSeconds: number;
  description: string;
  /** Who the line was with ("To Grace Landlord"), null where nobody else took part: the PDF prints it before the description, OFX as the payee. */
  party: string | null;
  category: string;
  /** Signed: money out is negative. */
  amountCents: bigint;
  /** The balance after this line. */
  balanceCents: bigint;
}

export interface StatementTotals {
  lineCount: number;
  moneyInCents: bigint;
  /** Positive: the sum of the money that went out. */
  moneyOutCents: bigint;
  closingBalanceCents: bigint;
}

export interface Statement {
  bankName: string;
  /** The bank's time zone (BANK_TIME_ZONE): the dates of the period and of every line are in it. */
  timeZone: string;
  /** When the ledger was read. */
  generatedAt: Date;
  period: { from: string; to: string; startsAt: Date; endsAt: Date };
  /** The statement holds the ledger up to here: the end of the period, or now if it has not ended. */
  asOf: Date;
  account: { id: string; type: 'checking' | 'savings'; number: string; name: string };
  holder: { name: string; addressLines: string[] };
  openingBalanceCents: bigint;
  /** The lines, oldest first, a batch at a time; returns the totals after the last batch. Read once. */
  batches: AsyncGenerator<StatementLine[], StatementTotals, undefined>;
}

export interface StatementQuery {
  from: string;
  to: string;
}

const dayMs = 86_400_000;

function calendarDay(text: string, field: 'from' | 'to'): number {
  const time = Date.parse(`${text}T00:00:00Z`);
  const year = Number(text.slice(0, 4));
  if (!Number.isFinite(time) || new Date(time).toISOString().slice(0, 10) !== text || year < 1900) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { [field]: 'This is not a calendar date' } });
  }
  return time / dayMs;
}

/** Inclusive calendar dates, `from` not after `to`, at most 366 days: a year, never a lifetime. */
export function checkStatementRange(query: StatementQuery): void {
  const from = calendarDay(query.from, 'from');
  const to = calendarDay(query.to, 'to');
  if (from > to) throw new AppError('validation_failed', 'Some fields are not valid', { fields: { to: 'The end date must not be before the start date' } });
  if (to - from + 1 > statementMaxDays) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { to: `A statement covers at most ${statementMaxDays} days` } });
  }
}

/**
 * What the posted transfers dated `since` or later, up to `lastSequence`, added to the balance, and
 * the oldest of the account's transfers dated `since` or later. Walks back from the newest, so it
 * costs what the account did since `since`, however long its history.
 */
async function postedSince(
  db: Queryable,
  ledgerAccountId: string,
  lastSequence: bigint,
  since: Date,
  chunkSize: number,
): Promise<{ netCents: bigint; firstSequence: bigint | null }> {
  let netCents = 0n;
  let firstSequence: bigint | null = null;
  let before = lastSequence + 1n;
  for (let chunkIndex = 0; before > 1n; chunkIndex += 1) {
    assert(chunkIndex < openingBalanceMaxChunks, `account ${ledgerAccountId} has more transfers than a statement may walk`);
    const chunk = await sumPostedSinceChunk(db, ledgerAccountId, before, since, ledgerDateSkewLimitSeconds, chunkSize);
    netCents += BigInt(chunk.net_cents);
    if (chunk.first_since_sequence !== null) firstSequence = chunk.first_since_sequence;
    if (chunk.passed_since || chunk.lowest_sequence === null || chunk.transfers < BigInt(chunkSize)) break;
    before = chunk.lowest_sequence;
  }
  return { netCents, firstSequence };
}

interface LineWalk {
  db: Queryable;
  ledgerAccountId: string;
  timeZone: string;
  batchSize: number;
  firstSequence: bigint | null;
  lastSequence: bigint;
  startsAt: Date;
  endsAt: Date;
  openingBalanceCents: bigint;
  /** The account's balance at the snapshot: a period that has not ended must close on it. */
  ledgerBalanceCents: bigint;
  periodIsOpen: boolean;
}

function isPosted(row: StatementTransferRow): boolean {
  // A plain posted transfer or the post of a pending one; pending and void transfers move no balance.
  return (row.flags & 10) === 0;
}

async function* walkLines(walk: LineWalk): AsyncGenerator<StatementLine[], StatementTotals, undefined> {
  const totals: StatementTotals = { lineCount: 0, moneyInCents: 0n, moneyOutCents: 0n, closingBalanceCents: walk.openingBalanceCents };
  const stopAtMs = walk.endsAt.getTime() + ledgerDateSkewLimitSeconds * 1_000;
  let after = walk.firstSequence === null ? walk.lastSequence : walk.firstSequence - 1n;
  let finished = after >= walk.lastSequence;
  while (!finished) {
    const rows = await readTransferBatch(walk.db, walk.ledgerAccountId, after, walk.lastSequence, walk.batchSize, walk.timeZone);
    const lines: StatementLine[] = [];
    for (const row of rows) {
      assert(row.sequence > after && row.sequence <= walk.lastSequence, `statement rows must come in sequence order, got ${row.sequence} after ${after}`);
      after = row.sequence;
      // Every later transfer is dated after the period (see ledgerDateSkewLimitSeconds).
      if (row.created_at.getTime() >= stopAtMs) {
        finished = true;
        break;
      }
      if (!isPosted(row) || row.created_at < walk.startsAt || row.created_at >= walk.endsAt) continue;
      const amountCents = row.is_credit ? row.amount : -row.amount;
      totals.closingBalanceCents += amountCents;
      if (row.is_credit) totals.moneyInCents += row.amount;
      else totals.moneyOutCents += row.amount;
      totals.lineCount += 1;
      const words = describeTransfer(row);
      lines.push({
        transferId: row.transfer_id,
        date: row.local_date,
        postedAt: row.created_at,
        localStamp: row.local_stamp,
        utcOffsetSeconds: row.utc_offset_seconds,
        description: words.description,
        party: words.party,
        category: words.category,
        amountCents,
        balanceCents: totals.closingBalanceCents,
      });
    }
    if (lines.length > 0) yield lines;
    if (rows.length < walk.batchSize) finished = true;
  }
  assert(totals.closingBalanceCents === walk.openingBalanceCents + totals.moneyInCents - totals.moneyOutCents, 'a statement must add up');
  if (walk.periodIsOpen) {
    assert(
      totals.closingBalanceCents === walk.ledgerBalanceCents,
      `a statement up to now must close on the ledger balance: ${totals.closingBalanceCents} against ${walk.ledgerBalanceCents}`,
    );
  }
  return totals;
}

function addressLinesOf(row: { address: string | null; state: string | null; country: string | null }): string[] {
  if (row.address === null) return [];
  const country = row.country ? (new Intl.DisplayNames(['en'], { type: 'region' }).of(row.country) ?? row.country) : null;
  return [row.address, [row.state, country].filter((part) => part).join(', ')].filter((line) => line.length > 0);
}

/**
 * Opens a statement: checks the range and the owner, reads the opening balance from the ledger,
 * and hands back the lines as batches to be written as they come. Completed entries only: posted
 * transfers, dated when they posted, in the bank's time zone.
 */
export async function openStatement(
  db: Queryable,
  config: Pick<Config, 'bankName' | 'bankTimeZone'>,
  customerId: string,
  accountId: string,
  query: StatementQuery,
  /** Smaller batches and chunks than the defaults, for tests of the walks. */
  options: { batchSize?: number; openingChunkSize?: number } = {},
): Promise<Statement> {
  checkStatementRange(query);
  return openPeriod(db, config, customerId, accountId, query, options);
}

/**
 * `GET /accounts/{id}/statement/months`: the months the statement picker offers, from this month
 * back to the one the account opened. Someone else's account answers like a missing one.
 */
export async function statementMonths(db: Queryable, config: Pick<Config, 'bankTimeZone'>, customerId: string, accountId: string): Promise<StatementMonths> {
  const months = await listStatementMonths(db, accountId, customerId, config.bankTimeZone, statementMonthsOffered);
  if (months.length === 0) throw new AppError('not_found', 'No such account');
  return { months };
}

/** Before the bank's first transfer: a history from here holds every transfer of the account. */
const historyStart = '1970-01-01';

/**
 * The account's whole history, from its first transfer to now, as a statement (the data export's
 * transactions file): not limited to a year, since the export is limited to a few an hour. Read
 * a batch at a time like any statement, so memory does not grow with the history.
 */
export async function openAccountHistory(
  db: Queryable,
  config: Pick<Config, 'bankName' | 'bankTimeZone'>,
  customerId: string,
  accountId: string,
): Promise<Statement> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: config.bankTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return openPeriod(db, config, customerId, accountId, { from: historyStart, to: today });
}

async function openPeriod(
  db: Queryable,
  config: Pick<Config, 'bankName' | 'bankTimeZone'>,
  customerId: string,
  accountId: string,
  query: StatementQuery,
  options: { batchSize?: number; openingChunkSize?: number } = {},
): Promise<Statement> {
  const account = await findStatementAccount(db, accountId, customerId);
  if (!account) throw new AppError('not_found', 'No such account');
  assert(account.ledger_account_id !== null, `account ${account.id} has no ledger account`);
  const ledgerAccountId = account.ledger_account_id;
  const snapshot = await readLedgerSnapshot(db, ledgerAccountId, query.from, query.to, config.bankTimeZone);
  assert(snapshot !== undefined, `ledger account ${ledgerAccountId} of account ${account.id} does not exist`);
  assert(normalSideOfCode(snapshot.code) === 'credit', `account ${account.id} is not a deposit account`);
  const ledgerBalanceCents = snapshot.credits_posted - snapshot.debits_posted;
  const since = await postedSince(db, ledgerAccountId, snapshot.last_sequence, snapshot.from_start, options.openingChunkSize ?? openingBalanceChunkSize);
  const openingBalanceCents = ledgerBalanceCents - since.netCents;
  const periodIsOpen = snapshot.to_end > snapshot.snapshot_at;
  return {
    bankName: config.bankName,
    timeZone: config.bankTimeZone,
    generatedAt: snapshot.snapshot_at,
    period: { from: query.from, to: query.to, startsAt: snapshot.from_start, endsAt: snapshot.to_end },
    asOf: periodIsOpen ? snapshot.snapshot_at : snapshot.to_end,
    account: { id: account.id, type: account.type, number: account.number, name: account.name },
    holder: { name: `${account.first_name} ${account.last_name}`, addressLines: addressLinesOf(account) },
    openingBalanceCents,
    batches: walkLines({
      db,
      ledgerAccountId,
      timeZone: config.bankTimeZone,
      batchSize: options.batchSize ?? statementBatchSize,
      firstSequence: since.firstSequence,
      lastSequence: snapshot.last_sequence,
      startsAt: snapshot.from_start,
      endsAt: snapshot.to_end,
      openingBalanceCents,
      ledgerBalanceCents,
      periodIsOpen,
    }),
  };
}

export function statementFileName(statement: Pick<Statement, 'account' | 'period'>, extension: 'pdf' | 'csv' | 'ofx'): string {
  return `statement-${statement.account.number}-${statement.period.from}-${statement.period.to}.${extension}`;
}
