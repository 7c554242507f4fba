import type { Queryable } from '../../db/database.ts';
import { transferCodes } from '../../ledger/codes.ts';
import type { Direction } from './matching.ts';
import { settlementBankAccounts, settlementAccountByLedgerId, type SettlementAccountKey } from './settlement-accounts.ts';

/** SQL of the reconciliation (docs/books.md, "Reconciliation"): statements, their lines, the exceptions queue. */

/** Imports and resolutions take this lock, one at a time, so two never match one transfer twice. */
export const reconciliationLockKey = 7735002;

export async function lockReconciliation(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [reconciliationLockKey]);
}

export interface SettlementTransferRow {
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount: bigint;
  code: number;
  posted_on: string;
}

export interface SettlementEntry {
  transferId: string;
  settlementAccount: SettlementAccountKey;
  direction: Direction;
  amountCents: bigint;
  code: number;
  postedOn: string;
}

/**
 * A posted transfer's entries on the settlement accounts: debiting one is money into the bank's
 * account there (a statement credit), crediting one money out. Adjusting entries are the books'
 * own corrections, never money the settlement bank moved, so no statement shows them.
 */
export function settlementEntriesOf(row: SettlementTransferRow): SettlementEntry[] {
  const entries: SettlementEntry[] = [];
  const debit = settlementAccountByLedgerId(row.debit_account_id);
  const credit = settlementAccountByLedgerId(row.credit_account_id);
  const base = { transferId: row.id, amountCents: row.amount, code: row.code, postedOn: row.posted_on };
  if (debit) entries.push({ ...base, settlementAccount: debit.key, direction: 'credit' });
  if (credit) entries.push({ ...base, settlementAccount: credit.key, direction: 'debit' });
  return entries;
}

const settlementLedgerIds = settlementBankAccounts.map((account) => account.ledgerAccountId);

const transferColumns = `t.id, t.debit_account_id, t.credit_account_id, t.amount, t.code, to_char(t.posted_on, 'YYYY-MM-DD') AS posted_on`;

/** Posted settlement transfers (not pending, not void rows; no adjusting entries) booked from `from` through `through`, earliest first. */
export async function settlementTransfersBooked(db: Queryable, from: string, through: string): Promise<SettlementTransferRow[]> {
  return db.query<SettlementTransferRow>(
    `SELECT ${transferColumns}
       FROM ledger_transfers t
      WHERE t.posted_on BETWEEN $1::date AND $2::date AND t.flags & 10 = 0 AND t.amount > 0 AND t.code <> $4
        AND (t.debit_account_id = ANY($3::uuid[]) OR t.credit_account_id = ANY($3::uuid[]))
      ORDER BY t.posted_on, t.sequence`,
    [from, through, settlementLedgerIds, transferCodes.adjustment],
  );
}

/** Earlier settlement transfers still waiting for the statement line that shows them (an open unmatched_ledger_entry). */
export async function transfersAwaitingStatement(db: Queryable): Promise<SettlementTransferRow[]> {
  return db.query<SettlementTransferRow>(
    `SELECT ${transferColumns}
       FROM reconciliation_exceptions x JOIN ledger_transfers t ON t.id = x.ledger_transfer_id
      WHERE x.kind = 'unmatched_ledger_entry' AND x.status = 'open'
      ORDER BY t.posted_on, t.sequence`,
  );
}

/** Of these transfers, those a statement line matched already. */
export async function transfersMatched(db: Queryable, transferIds: readonly string[]): Promise<Set<string>> {
  if (transferIds.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(`SELECT matched_transfer_id AS id FROM bank_statement_lines WHERE matched_transfer_id = ANY($1::uuid[])`, [
    transferIds,
  ]);
  return new Set(rows.map((row) => row.id));
}

/** Of these transfers, those an exception names already (open or resolved): one exception per transfer at most. */
export async function transfersWithExceptions(db: Queryable, transferIds: readonly string[]): Promise<Set<string>> {
  if (transferIds.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(
    `SELECT DISTINCT ledger_transfer_id AS id FROM reconciliation_exceptions WHERE ledger_transfer_id = ANY($1::uuid[])`,
    [transferIds],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * The settlement transfer of each ACH trace number the bank's NACHA files gave: a payment's post
 * of its pending transfer (the rail settled it), or a micro-deposit's own transfer.
 */
export async function transfersOfTraceNumbers(db: Queryable, traceNumbers: readonly string[]): Promise<Map<string, string>> {
  if (traceNumbers.length === 0) return new Map();
  const rows = await db.query<{ trace_number: string; transfer_id: string | null }>(
    `SELECT e.trace_number, coalesce(s.resolved_by_id, e.micro_deposit_id) AS transfer_id
       FROM ach_entries e LEFT JOIN pending_transfer_states s ON s.pending_id = e.payment_id AND s.state = 'posted'
      WHERE e.trace_number = ANY($1::text[])`,
    [traceNumbers],
  );
  return new Map(rows.flatMap((row) => (row.transfer_id ? [[row.trace_number, row.transfer_id] as const] : [])));
}

export async function statementIdOfContent(db: Queryable, sha256: string): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM bank_statements WHERE file_sha256 = $1', [sha256]);
  return row?.id;
}

export interface StatementRow {
  id: string;
  file_name: string;
  sender: string;
  as_of_date: string;
  line_count: number;
  matched_count: number;
  exception_count: number;
  imported_by: string;
  /** Null when a system imported it ('rail-simulator', 'ops-cli'): no staff member has that id. */
  imported_by_email: string | null;
  imported_at: Date;
}

// imported_by is text (a staff id or a system's name), hence the comparison as text.
const statementColumns = `id, file_name, sender, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date, line_count, matched_count, exception_count, imported_by,
  (SELECT s.email FROM staff s WHERE s.id::text = imported_by) AS imported_by_email, imported_at`;

export async function insertStatement(
  tx: Queryable,
  statement: {
    id: string;
    sha256: string;
    fileName: string;
    sender: string;
    asOfDate: string;
    lineCount: number;
    matchedCount: number;
    exceptionCount: number;
    importedBy: string;
    content: string;
    at: Date | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO bank_statements (id, file_sha256, file_name, sender, as_of_date, line_count, matched_count, exception_count, imported_by, content, imported_at)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9, $10, coalesce($11::timestamptz, now()))`,
    [
      statement.id,
      statement.sha256,
      statement.fileName,
      statement.sender,
      statement.asOfDate,
      statement.lineCount,
      statement.matchedCount,
      statement.exceptionCount,
      statement.importedBy,
      statement.content,
      statement.at,
    ],
  );
}

export interface LineInsert {
  id: string;
  settlementAccount: SettlementAccountKey;
  day: string;
  typeCode: string;
  direction: Direction;
  amountCents: bigint;
  bankReference: string | null;
  customerReference: string | null;
  text: string | null;
  matchedTransferId: string | null;
  matchMethod: string | null;
}

export async function insertLines(tx: Queryable, statementId: string, lines: readonly LineInsert[]): Promise<void> {
  if (lines.length === 0) return;
  await tx.query(
    `INSERT INTO bank_statement_lines (id, statement_id, settlement_account, day, type_code, direction, amount_cents, bank_reference, customer_reference, text, matched_transfer_id, match_method)
     SELECT id, $1, settlement_account, day, type_code, direction, amount_cents, bank_reference, customer_reference, text, matched_transfer_id, match_method
       FROM unnest($2::uuid[], $3::text[], $4::date[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::uuid[], $12::text[])
            AS line (id, settlement_account, day, type_code, direction, amount_cents, bank_reference, customer_reference, text, matched_transfer_id, match_method)`,
    [
      statementId,
      lines.map((line) => line.id),
      lines.map((line) => line.settlementAccount),
      lines.map((line) => line.day),
      lines.map((line) => line.typeCode),
      lines.map((line) => line.direction),
      lines.map((line) => line.amountCents.toString()),
      lines.map((line) => line.bankReference),
      lines.map((line) => line.customerReference),
      lines.map((line) => line.text),
      lines.map((line) => line.matchedTransferId),
      lines.map((line) => line.matchMethod),
    ],
  );
}

export interface ExceptionInsert {
  id: string;
  kind: 'unmatched_statement_line' | 'unmatched_ledger_entry' | 'amount_mismatch';
  settlementAccount: SettlementAccountKey;
  day: string;
  direction: Direction;
  amountCents: bigint;
  statementLineId: string | null;
  ledgerTransferId: string | null;
}

export async function insertExceptions(tx: Queryable, statementId: string, exceptions: readonly ExceptionInsert[], at: Date | null): Promise<void> {
  if (exceptions.length === 0) return;
  await tx.query(
    `INSERT INTO reconciliation_exceptions (id, kind, statement_id, settlement_account, day, direction, amount_cents, statement_line_id, ledger_transfer_id, status, created_at)
     SELECT id, kind, $1, settlement_account, day, direction, amount_cents, statement_line_id, ledger_transfer_id, 'open', coalesce($10::timestamptz, now()) + (position * interval '1 microsecond')
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::date[], $6::text[], $7::bigint[], $8::uuid[], $9::uuid[]) WITH ORDINALITY
            AS x (id, kind, settlement_account, day, direction, amount_cents, statement_line_id, ledger_transfer_id, position)`,
    [
      statementId,
      exceptions.map((exception) => exception.id),
      exceptions.map((exception) => exception.kind),
      exceptions.map((exception) => exception.settlementAccount),
      exceptions.map((exception) => exception.day),
      exceptions.map((exception) => exception.direction),
      exceptions.map((exception) => exception.amountCents.toString()),
      exceptions.map((exception) => exception.statementLineId),
      exceptions.map((exception) => exception.ledgerTransferId),
      at,
    ],
  );
}

/** A later statement showed the transfer an open unmatched_ledger_entry waited for: resolved as matched, by no one (the import). */
export async function resolveAwaitingEntries(tx: Queryable, transferIds: readonly string[], reason: string, at: Date | null): Promise<string[]> {
  if (transferIds.length === 0) return [];
  const rows = await tx.query<{ id: string }>(
    `UPDATE reconciliation_exceptions SET status = 'resolved', resolution = 'matched', resolution_reason = $2, resolved_at = coalesce($3::timestamptz, now())
      WHERE kind = 'unmatched_ledger_entry' AND status = 'open' AND ledger_transfer_id = ANY($1::uuid[])
      RETURNING id`,
    [transferIds, reason, at],
  );
  return rows.map((row) => row.id);
}

export async function findStatement(db: Queryable, id: string): Promise<StatementRow | undefined> {
  const [row] = await db.query<StatementRow>(`SELECT ${statementColumns} FROM bank_statements WHERE id = $1`, [id]);
  return row;
}

/** The statements imported, newest as-of date first. */
export async function listStatements(db: Queryable, limit: number): Promise<StatementRow[]> {
  return db.query<StatementRow>(`SELECT ${statementColumns} FROM bank_statements ORDER BY as_of_date DESC, imported_at DESC, id DESC LIMIT $1`, [limit]);
}
