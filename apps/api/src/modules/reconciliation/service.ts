import { createHash, randomUUID } from 'node:crypto';
import type { BankStatement, ReconciliationException } from '@strongroom/contracts/books.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { addDays, previousBusinessDay } from '../../platform/business-calendar.ts';
import type { RequestOrigin } from '../../platform/request-actor.ts';
import type { ReconciliationDependencies } from './dependencies.ts';
import { Bai2ParseError, directionOfTypeCode, parseBai2, type Bai2File } from './bai2.ts';
import { exceptionsOfStatement } from './exceptions.ts';
import { isTraceNumber, matchLines, type ExpectedEntry, type LineToMatch, type MatchResult } from './matching.ts';
import {
  insertExceptions,
  insertLines,
  insertStatement,
  findStatement,
  listStatements,
  lockReconciliation,
  resolveAwaitingEntries,
  settlementEntriesOf,
  settlementTransfersBooked,
  statementIdOfContent,
  transfersAwaitingStatement,
  transfersMatched,
  transfersOfTraceNumbers,
  transfersWithExceptions,
  type ExceptionInsert,
  type LineInsert,
  type StatementRow,
} from './repository.ts';
import { settlementAccountByNumber } from './settlement-accounts.ts';

/**
 * Importing the settlement bank's BAI2 statement (docs/books.md, "Reconciliation"). A statement as
 * of day D covers the ledger's settlement entries booked from the day after the previous business
 * day through D. Each line is matched to one of them (by the transfer id it carries, an ACH trace
 * number, or else account, direction and amount); what is left on either side becomes an exception
 * for staff to resolve. One file is imported once (by its SHA-256), in one transaction.
 */
export type ImportOutcome =
  | { kind: 'imported'; statement: BankStatement; exceptions: ReconciliationException[] }
  | { kind: 'already_imported'; statementId: string }
  | { kind: 'invalid'; line: number | null; message: string };

export interface ImportedBy {
  actorType: 'staff' | 'system';
  actorId: string;
  origin?: RequestOrigin;
  /** A staff member's reason (the console requires one); the ops CLI and the sandbox's simulator say theirs. */
  reason?: string;
}

export function presentStatement(row: StatementRow): BankStatement {
  return {
    id: row.id,
    fileName: row.file_name,
    sender: row.sender,
    asOfDate: row.as_of_date,
    lineCount: row.line_count,
    matchedCount: row.matched_count,
    exceptionCount: row.exception_count,
    importedBy: row.imported_by,
    importedByEmail: row.imported_by_email,
    importedAt: row.imported_at.toISOString(),
  };
}

/** The statements imported, newest as-of date first. */
export async function listBankStatements(db: Queryable, limit: number): Promise<BankStatement[]> {
  return (await listStatements(db, limit)).map(presentStatement);
}

interface StatementLine extends LineToMatch {
  day: string;
  typeCode: string;
  text: string | null;
}

/** The lines of a parsed statement on the bank's settlement accounts, or why it is not one of theirs. */
function linesOf(file: Bai2File): { asOfDate: string; lines: StatementLine[] } | { invalid: string } {
  const asOfDates = new Set(file.groups.map((group) => group.asOfDate));
  const [asOfDate] = asOfDates;
  if (!asOfDate || asOfDates.size > 1) return { invalid: 'a statement covers one as-of date: this file has none or several' };
  const lines: StatementLine[] = [];
  for (const group of file.groups) {
    for (const account of group.accounts) {
      const settlement = settlementAccountByNumber(account.accountNumber);
      if (!settlement) return { invalid: `account ${account.accountNumber} is not one of the bank's settlement accounts` };
      if (account.currency !== 'USD')
        return { invalid: `account ${account.accountNumber} is reported in ${account.currency}; the settlement accounts are in USD` };
      for (const detail of account.details) {
        const direction = directionOfTypeCode(detail.typeCode);
        // Non-monetary details (890, ...) and zero amounts move no money.
        if (!direction || detail.amountCents === 0n) continue;
        lines.push({
          settlementAccount: settlement.key,
          direction,
          amountCents: detail.amountCents,
          customerReference: detail.customerReference,
          bankReference: detail.bankReference,
          day: asOfDate,
          typeCode: detail.typeCode,
          text: detail.text,
        });
      }
    }
  }
  return { asOfDate, lines };
}

function auditOf(importedBy: ImportedBy, entry: Omit<AuditEntry, 'actorType' | 'actorId' | 'ip' | 'userAgent' | 'requestId'>): AuditEntry {
  const { origin, reason } = importedBy;
  const details = reason === undefined ? entry.details : { ...entry.details, reason };
  return {
    actorType: importedBy.actorType,
    actorId: importedBy.actorId,
    ip: origin?.ip,
    userAgent: origin?.userAgent,
    requestId: origin?.requestId,
    ...entry,
    details,
  };
}

/** The ledger's entries a statement as of `asOfDate` is matched against: the window's, and earlier ones still waiting. */
async function expectedEntries(tx: Queryable, asOfDate: string): Promise<ExpectedEntry[]> {
  const from = addDays(previousBusinessDay(asOfDate), 1);
  const inWindow = (await settlementTransfersBooked(tx, from, asOfDate)).flatMap(settlementEntriesOf);
  const waiting = (await transfersAwaitingStatement(tx)).flatMap(settlementEntriesOf);
  const matched = await transfersMatched(
    tx,
    inWindow.map((entry) => entry.transferId),
  );
  const seen = new Set<string>();
  const entries: ExpectedEntry[] = [];
  for (const [entry, isInWindow] of [...inWindow.map((entry) => [entry, true] as const), ...waiting.map((entry) => [entry, false] as const)]) {
    const key = `${entry.transferId}:${entry.settlementAccount}`;
    if (seen.has(key) || matched.has(entry.transferId)) continue;
    seen.add(key);
    entries.push({ ...entry, inWindow: isInWindow });
  }
  return entries;
}

/** What an import writes: each line with the transfer it matched, and the exceptions. */
function recordsOf(
  asOfDate: string,
  lines: readonly StatementLine[],
  result: MatchResult,
  alreadyNamed: ReadonlySet<string>,
): { lines: LineInsert[]; exceptions: ExceptionInsert[]; matchedCount: number } {
  const matchOf = new Map(result.matches.map((match) => [match.lineIndex, match]));
  const inserts: LineInsert[] = lines.map((line, index) => ({
    id: randomUUID(),
    settlementAccount: line.settlementAccount,
    day: line.day,
    typeCode: line.typeCode,
    direction: line.direction,
    amountCents: line.amountCents,
    bankReference: line.bankReference,
    customerReference: line.customerReference,
    text: line.text,
    matchedTransferId: matchOf.get(index)?.entry.transferId ?? null,
    matchMethod: matchOf.get(index)?.method ?? null,
  }));
  const ofLine = (kind: ExceptionInsert['kind'], index: number, ledgerTransferId: string | null): ExceptionInsert => {
    const line = inserts[index];
    if (!line) throw new Error(`statement line ${index} does not exist`);
    const { settlementAccount, direction, amountCents } = line;
    return { id: randomUUID(), kind, settlementAccount, day: asOfDate, direction, amountCents, statementLineId: line.id, ledgerTransferId };
  };
  const exceptions: ExceptionInsert[] = [
    ...result.matches.filter((match) => match.amountMismatch).map((match) => ofLine('amount_mismatch', match.lineIndex, match.entry.transferId)),
    ...result.unmatchedLineIndexes.map((index) => ofLine('unmatched_statement_line', index, null)),
    ...result.unmatchedEntries
      .filter((entry) => !alreadyNamed.has(entry.transferId))
      .map((entry) => ({
        id: randomUUID(),
        kind: 'unmatched_ledger_entry' as const,
        settlementAccount: entry.settlementAccount,
        day: entry.postedOn,
        direction: entry.direction,
        amountCents: entry.amountCents,
        statementLineId: null,
        ledgerTransferId: entry.transferId,
      })),
  ];
  return { lines: inserts, exceptions, matchedCount: result.matches.filter((match) => !match.amountMismatch).length };
}

interface ParsedStatement {
  fileName: string;
  content: string;
  sha256: string;
  sender: string;
  asOfDate: string;
  lines: StatementLine[];
}

/** The import itself, in the caller's transaction, one import or resolution at a time. */
async function importInTransaction(
  tx: Queryable,
  deps: ReconciliationDependencies,
  statement: ParsedStatement,
  importedBy: ImportedBy,
): Promise<ImportOutcome> {
  await lockReconciliation(tx);
  const existing = await statementIdOfContent(tx, statement.sha256);
  if (existing) return { kind: 'already_imported', statementId: existing };
  const { asOfDate, lines } = statement;
  const at = sqlInstant(deps.clock);
  const traces = new Set(lines.flatMap((line) => [line.customerReference, line.bankReference]).filter(isTraceNumber));
  const result = matchLines(lines, await expectedEntries(tx, asOfDate), await transfersOfTraceNumbers(tx, [...traces]));
  const alreadyNamed = await transfersWithExceptions(
    tx,
    result.unmatchedEntries.map((entry) => entry.transferId),
  );
  const records = recordsOf(asOfDate, lines, result, alreadyNamed);
  const id = randomUUID();
  const counts = { lineCount: lines.length, matchedCount: records.matchedCount, exceptionCount: records.exceptions.length };
  await insertStatement(tx, {
    id,
    sha256: statement.sha256,
    fileName: statement.fileName,
    sender: statement.sender,
    asOfDate,
    ...counts,
    importedBy: importedBy.actorId,
    content: statement.content,
    at,
  });
  await insertLines(tx, id, records.lines);
  await insertExceptions(tx, id, records.exceptions, at);
  const waiting = result.matches.filter((match) => !match.entry.inWindow).map((match) => match.entry.transferId);
  const resolved = await resolveAwaitingEntries(tx, waiting, `matched by the statement of ${asOfDate}`, at);
  await recordAudit(
    tx,
    auditOf(importedBy, {
      action: 'reconciliation.statement_imported',
      subject: id,
      outcome: 'success',
      details: { fileName: statement.fileName, sha256: statement.sha256, asOfDate, ...counts, resolvedEarlier: resolved.length },
    }),
  );
  const row = await findStatement(tx, id);
  if (!row) throw new Error(`statement ${id} was written and not found`);
  return { kind: 'imported', statement: presentStatement(row), exceptions: await exceptionsOfStatement(tx, id) };
}

/**
 * Imports a BAI2 statement: `invalid` names the line at fault (or the account no settlement account
 * has). An import and a second import of the same file are audited; a file that is not a statement
 * is a bad request, answered and not written anywhere, as any request the validation refuses.
 */
export async function importStatement(
  deps: ReconciliationDependencies,
  file: { fileName: string; content: string },
  importedBy: ImportedBy,
): Promise<ImportOutcome> {
  const sha256 = createHash('sha256').update(file.content, 'utf8').digest('hex');
  const refuse = async (outcome: Exclude<ImportOutcome, { kind: 'imported' }>): Promise<ImportOutcome> => {
    if (outcome.kind === 'invalid') return outcome;
    const details = { refusal: 'already_imported', statementId: outcome.statementId };
    await recordAudit(
      deps.db,
      auditOf(importedBy, { action: 'reconciliation.statement_refused', subject: file.fileName, outcome: 'failure', details: { sha256, ...details } }),
    );
    return outcome;
  };
  let parsed: Bai2File;
  try {
    parsed = parseBai2(file.content);
  } catch (error) {
    if (error instanceof Bai2ParseError) return refuse({ kind: 'invalid', line: error.line, message: error.message });
    throw error;
  }
  const statementLines = linesOf(parsed);
  if ('invalid' in statementLines) return refuse({ kind: 'invalid', line: null, message: statementLines.invalid });
  const statement = { ...file, sha256, sender: parsed.sender, ...statementLines };
  const outcome = await retryOnWriteConflict(() => deps.db.transaction((tx) => importInTransaction(tx, deps, statement, importedBy)));
  return outcome.kind === 'imported' ? outcome : refuse(outcome);
}
