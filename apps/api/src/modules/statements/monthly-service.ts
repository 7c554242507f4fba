import type { MonthlyStatementList } from '@strongroom/contracts/monthly-statements.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { assert } from '../../ledger/assert.ts';
import { AppError } from '../../platform/errors.ts';
import { findMonthlyStatement, listMonthlyStatements, type MonthlyStatementRow } from './monthly-repository.ts';
import { findStatementAccount, readTransferBatch } from './repository.ts';
import { statementBatchSize } from './batch-size.ts';
import type { Statement, StatementLine, StatementTotals } from './service.ts';
import { describeTransfer } from './words.ts';

/**
 * A monthly statement as the files draw it: the statement of the period (service.ts's Statement,
 * so the CSV and OFX writers serve it unchanged) plus what Regulation DD (12 CFR 1030.6) asks a
 * periodic statement to carry, read from the monthly_statements row the end-of-day job wrote.
 */
export interface MonthlyStatementFile extends Statement {
  statementId: string;
  periodStart: string;
  periodEnd: string;
  closingBalanceCents: bigint;
  creditsCents: bigint;
  debitsCents: bigint;
  interestCents: bigint;
  interestYearCents: bigint;
  feesCents: bigint;
  feesYearCents: bigint;
  apyEarnedBps: number;
  averageDailyBalanceCents: bigint;
  days: number;
  /** The monthly fee's outcome (waived, and why, or charged), as the row says it; null when the account has no fee. */
  feeNote: string | null;
  /** The fee lines (charged and given back) of the period, filled in as the lines are read: complete once `batches` is done. */
  feeLines: StatementLine[];
}

function present(row: MonthlyStatementRow): MonthlyStatementList['items'][number] {
  return {
    id: row.id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    openingBalanceCents: Number(row.opening_balance_cents),
    closingBalanceCents: Number(row.closing_balance_cents),
    interestCents: Number(row.interest_cents),
    feesCents: Number(row.fees_cents),
    apyEarnedBps: row.apy_earned_bps,
    feeNote: row.fee_note,
  };
}

/** `GET /accounts/{id}/statements`: newest first; an account that is not the customer's answers 404 like a missing one. */
export async function monthlyStatements(db: Queryable, customerId: string, accountId: string): Promise<MonthlyStatementList> {
  const rows = await listMonthlyStatements(db, customerId, accountId);
  if (!rows) throw new AppError('not_found', 'No such account');
  return { items: rows.map(present) };
}

interface MonthlyWalk {
  db: Queryable;
  ledgerAccountId: string;
  timeZone: string;
  batchSize: number;
  row: MonthlyStatementRow;
  feeLines: StatementLine[];
}

function isPosted(flags: number): boolean {
  // A plain posted transfer or the post of a pending one; pending and void transfers move no balance.
  return (flags & 10) === 0;
}

/**
 * The statement's lines: the account's transfers with a sequence in (after, through], posted ones
 * only, oldest first, a batch at a time, each with its running balance from the row's opening one.
 * They must add up to the row's credits, debits and closing balance, or the file is not written.
 */
async function* walkMonthlyLines(walk: MonthlyWalk): AsyncGenerator<StatementLine[], StatementTotals, undefined> {
  const { row } = walk;
  const totals: StatementTotals = { lineCount: 0, moneyInCents: 0n, moneyOutCents: 0n, closingBalanceCents: row.opening_balance_cents };
  let after = row.after_sequence;
  for (;;) {
    const rows = await readTransferBatch(walk.db, walk.ledgerAccountId, after, row.through_sequence, walk.batchSize, walk.timeZone);
    const lines: StatementLine[] = [];
    for (const transfer of rows) {
      assert(
        transfer.sequence > after && transfer.sequence <= row.through_sequence,
        `statement rows must come in sequence order, got ${transfer.sequence} after ${after}`,
      );
      after = transfer.sequence;
      if (!isPosted(transfer.flags)) continue;
      const amountCents = transfer.is_credit ? transfer.amount : -transfer.amount;
      totals.closingBalanceCents += amountCents;
      if (transfer.is_credit) totals.moneyInCents += transfer.amount;
      else totals.moneyOutCents += transfer.amount;
      totals.lineCount += 1;
      const words = describeTransfer(transfer);
      const line: StatementLine = {
        transferId: transfer.transfer_id,
        date: transfer.local_date,
        postedAt: transfer.created_at,
        localStamp: transfer.local_stamp,
        utcOffsetSeconds: transfer.utc_offset_seconds,
        description: words.description,
        party: words.party,
        category: words.category,
        amountCents,
        balanceCents: totals.closingBalanceCents,
      };
      lines.push(line);
      if (transfer.kind === 'fee' || transfer.kind === 'fee_refund') walk.feeLines.push(line);
    }
    if (lines.length > 0) yield lines;
    if (rows.length < walk.batchSize) break;
  }
  assert(
    totals.moneyInCents === row.credits_cents && totals.moneyOutCents === row.debits_cents && totals.closingBalanceCents === row.closing_balance_cents,
    `statement ${row.id} does not tie out: lines give +${totals.moneyInCents} -${totals.moneyOutCents} = ${totals.closingBalanceCents}, the row +${row.credits_cents} -${row.debits_cents} = ${row.closing_balance_cents}`,
  );
  return totals;
}

function addressLinesOf(row: { address: string | null; state: string | null; country: string | null }): string[] {
  if (row.address === null) return [];
  const country = row.country ? (new Intl.DisplayNames(['en'], { type: 'region' }).of(row.country) ?? row.country) : null;
  return [row.address, [row.state, country].filter((part) => part).join(', ')].filter((line) => line.length > 0);
}

/**
 * `GET /accounts/{id}/statements/{statementId}`: the statement, its lines to be read a batch at a
 * time. A statement of another account, or of another customer's, is not found, like a missing one.
 */
export async function openMonthlyStatement(
  db: Queryable,
  config: Pick<Config, 'bankName' | 'bankTimeZone'>,
  customerId: string,
  accountId: string,
  statementId: string,
  options: { batchSize?: number } = {},
): Promise<MonthlyStatementFile> {
  const row = await findMonthlyStatement(db, customerId, accountId, statementId);
  if (!row) throw new AppError('not_found', 'No such statement');
  const account = await findStatementAccount(db, accountId, customerId);
  assert(account !== undefined && account.ledger_account_id !== null, `account ${accountId} of statement ${row.id} has no ledger account`);
  const [bounds] = await db.query<{ starts_at: Date; ends_at: Date }>(
    `SELECT ($1::date)::timestamp AT TIME ZONE $3 AS starts_at, ($2::date + 1)::timestamp AT TIME ZONE $3 AS ends_at`,
    [row.period_start, row.period_end, config.bankTimeZone],
  );
  assert(bounds !== undefined, 'the period bounds answered no row');
  const feeLines: StatementLine[] = [];
  return {
    bankName: config.bankName,
    timeZone: config.bankTimeZone,
    generatedAt: row.created_at,
    period: { from: row.period_start, to: row.period_end, startsAt: bounds.starts_at, endsAt: bounds.ends_at },
    asOf: bounds.ends_at,
    account: { id: account.id, type: account.type, number: account.number, name: account.name },
    holder: { name: `${account.first_name} ${account.last_name}`, addressLines: addressLinesOf(account) },
    openingBalanceCents: row.opening_balance_cents,
    batches: walkMonthlyLines({
      db,
      ledgerAccountId: account.ledger_account_id,
      timeZone: config.bankTimeZone,
      batchSize: options.batchSize ?? statementBatchSize,
      row,
      feeLines,
    }),
    statementId: row.id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    closingBalanceCents: row.closing_balance_cents,
    creditsCents: row.credits_cents,
    debitsCents: row.debits_cents,
    interestCents: row.interest_cents,
    interestYearCents: row.interest_year_cents,
    feesCents: row.fees_cents,
    feesYearCents: row.fees_year_cents,
    apyEarnedBps: row.apy_earned_bps,
    averageDailyBalanceCents: row.average_daily_balance_cents,
    days: row.days,
    feeNote: row.fee_note,
    feeLines,
  };
}

/** `statement-<account number>-<first day>-<last day>.<format>`, like the statements of any period. */
export function monthlyStatementFileName(
  statement: Pick<MonthlyStatementFile, 'account' | 'periodStart' | 'periodEnd'>,
  extension: 'pdf' | 'csv' | 'ofx',
): string {
  return `statement-${statement.account.number}-${statement.periodStart}-${statement.periodEnd}.${extension}`;
}
