import type { ReconciliationException } from '@strongroom/contracts/books.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { transferCodes } from '../../ledger/codes.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { ExceptionNotOpenError, requestAdjustment } from '../books/service.ts';
import type { ReconciliationDependencies } from './dependencies.ts';
import { lockReconciliation } from './repository.ts';
import { settlementAccountByKey, type SettlementAccountKey } from './settlement-accounts.ts';

/**
 * The exceptions queue (docs/books.md, "Reconciliation"): what a statement and the ledger did not
 * agree on, open first and oldest day first, each resolved by a finance member with a reason:
 * matched by hand (a statement line with the ledger entry it is), or adjusted (an adjusting entry
 * that brings the ledger's settlement account to what the bank says).
 */
export const exceptionPageSize = 50;

interface ExceptionRow {
  id: string;
  kind: ReconciliationException['kind'];
  day: string;
  settlement_account: SettlementAccountKey;
  direction: 'credit' | 'debit';
  amount_cents: bigint;
  status: 'open' | 'resolved';
  resolution: 'matched' | 'adjusted' | null;
  resolution_reason: string | null;
  resolved_by: string | null;
  resolved_by_email: string | null;
  resolved_at: Date | null;
  matched_exception_id: string | null;
  adjustment_id: string | null;
  created_at: Date;
  statement_line_id: string | null;
  ledger_transfer_id: string | null;
  type_code: string | null;
  line_amount_cents: bigint | null;
  bank_reference: string | null;
  customer_reference: string | null;
  text: string | null;
  transfer_code: number | null;
  transfer_amount_cents: bigint | null;
  transfer_posted_on: string | null;
  status_rank: number;
  sort_text: string;
}

const exceptionSelect = `
  SELECT x.id, x.kind, to_char(x.day, 'YYYY-MM-DD') AS day, x.settlement_account, x.direction, x.amount_cents, x.status, x.resolution,
         x.resolution_reason, x.resolved_by, r.email AS resolved_by_email, x.resolved_at, x.matched_exception_id, x.adjustment_id, x.created_at, x.statement_line_id,
         x.ledger_transfer_id, l.type_code, l.amount_cents AS line_amount_cents, l.bank_reference, l.customer_reference, l.text,
         t.code AS transfer_code, t.amount AS transfer_amount_cents, to_char(t.posted_on, 'YYYY-MM-DD') AS transfer_posted_on,
         CASE WHEN x.status = 'open' THEN 0 ELSE 1 END AS status_rank, x.created_at::text AS sort_text
    FROM reconciliation_exceptions x
    LEFT JOIN bank_statement_lines l ON l.id = x.statement_line_id
    LEFT JOIN ledger_transfers t ON t.id = x.ledger_transfer_id
    LEFT JOIN staff r ON r.id = x.resolved_by`;

const codeNames = new Map<number, string>(Object.entries(transferCodes).map(([name, code]) => [code, name]));

/** "externalTransfer" -> "External transfer": what a transfer code says to a person. */
export function transferCodeDescription(code: number): string {
  const name = codeNames.get(code);
  if (!name) return `Transfer code ${code}`;
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function present(row: ExceptionRow): ReconciliationException {
  const account = settlementAccountByKey(row.settlement_account);
  if (!account) throw new Error(`exception ${row.id} names ${row.settlement_account}, not a settlement account`);
  return {
    id: row.id,
    kind: row.kind,
    day: row.day,
    settlementAccount: account.key,
    settlementAccountName: account.name,
    direction: row.direction,
    amountCents: Number(row.amount_cents),
    statementLine:
      row.statement_line_id && row.type_code !== null && row.line_amount_cents !== null
        ? {
            typeCode: row.type_code,
            amountCents: Number(row.line_amount_cents),
            bankReference: row.bank_reference,
            customerReference: row.customer_reference,
            text: row.text,
          }
        : null,
    ledgerTransfer:
      row.ledger_transfer_id && row.transfer_code !== null && row.transfer_amount_cents !== null && row.transfer_posted_on !== null
        ? {
            id: row.ledger_transfer_id,
            code: row.transfer_code,
            description: transferCodeDescription(row.transfer_code),
            amountCents: Number(row.transfer_amount_cents),
            postedOn: row.transfer_posted_on,
          }
        : null,
    status: row.status,
    resolution: row.resolution,
    resolutionReason: row.resolution_reason,
    resolvedBy: row.resolved_by,
    resolvedByEmail: row.resolved_by_email,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    matchedExceptionId: row.matched_exception_id,
    adjustmentId: row.adjustment_id,
    createdAt: row.created_at.toISOString(),
  };
}

export async function exceptionsOfStatement(db: Queryable, statementId: string): Promise<ReconciliationException[]> {
  const rows = await db.query<ExceptionRow>(`${exceptionSelect} WHERE x.statement_id = $1 ORDER BY x.day, x.created_at, x.id`, [statementId]);
  return rows.map(present);
}

export async function findException(db: Queryable, id: string): Promise<ReconciliationException | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<ExceptionRow>(`${exceptionSelect} WHERE x.id = $1`, [id]);
  return row ? present(row) : undefined;
}

interface ExceptionCursor {
  rank: number;
  day: string;
  at: string;
  id: string;
}

function encodeCursor(row: ExceptionRow): string {
  return Buffer.from(JSON.stringify([row.status_rank, row.day, row.sort_text, row.id]), 'utf8').toString('base64url');
}

/** A cursor that does not decode is no cursor: the first page. */
function decodeCursor(cursor: string | undefined): ExceptionCursor | undefined {
  if (!cursor) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [rank, day, at, id] = parsed as unknown[];
    if ((rank !== 0 && rank !== 1) || typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
    if (typeof at !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(at) || typeof id !== 'string' || !isUuid(id))
      return undefined;
    return { rank, day, at, id };
  } catch {
    return undefined;
  }
}

/** `GET /staff/reconciliation/exceptions?status=&cursor=`: open first, then oldest day first, a page at a time. */
export async function listExceptions(
  db: Queryable,
  query: { status?: 'open' | 'resolved'; cursor?: string },
): Promise<{ items: ReconciliationException[]; nextCursor: string | null }> {
  const parameters: unknown[] = [];
  const conditions: string[] = [];
  if (query.status) {
    parameters.push(query.status);
    conditions.push(`x.status = $${parameters.length}`);
  }
  const after = decodeCursor(query.cursor);
  if (after) {
    parameters.push(after.rank, after.day, after.at, after.id);
    const n = parameters.length;
    conditions.push(
      `(CASE WHEN x.status = 'open' THEN 0 ELSE 1 END, x.day, x.created_at, x.id) > ($${n - 3}::int, $${n - 2}::date, $${n - 1}::timestamptz, $${n}::uuid)`,
    );
  }
  parameters.push(exceptionPageSize + 1);
  const rows = await db.query<ExceptionRow>(
    `${exceptionSelect} ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
      ORDER BY status_rank, x.day, x.created_at, x.id LIMIT $${parameters.length}`,
    parameters,
  );
  const page = rows.slice(0, exceptionPageSize);
  const last = page.at(-1);
  return { items: page.map(present), nextCursor: rows.length > exceptionPageSize && last ? encodeCursor(last) : null };
}

export type ResolveOutcome =
  | { kind: 'resolved' | 'awaiting_approval'; exception: ReconciliationException }
  | { kind: 'not_found' }
  | { kind: 'already_resolved'; message: string }
  | { kind: 'invalid'; field: 'matchWith' | 'resolution'; message: string }
  | { kind: 'business_day_closed'; day: string; closedThrough: string };

export type ResolveRequest = { resolution: 'matched'; matchWith: string; reason: string } | { resolution: 'adjusted'; reason: string };

interface LockedException {
  id: string;
  kind: ReconciliationException['kind'];
  settlement_account: SettlementAccountKey;
  direction: 'credit' | 'debit';
  amount_cents: bigint;
  status: 'open' | 'resolved';
  adjustment_id: string | null;
  statement_line_id: string | null;
  ledger_transfer_id: string | null;
  line_amount_cents: bigint | null;
  transfer_amount_cents: bigint | null;
}

async function lockExceptions(tx: Queryable, ids: readonly string[]): Promise<Map<string, LockedException>> {
  const rows = await tx.query<LockedException>(
    `SELECT x.id, x.kind, x.settlement_account, x.direction, x.amount_cents, x.status, x.adjustment_id, x.statement_line_id, x.ledger_transfer_id,
            l.amount_cents AS line_amount_cents, t.amount AS transfer_amount_cents
       FROM reconciliation_exceptions x
       LEFT JOIN bank_statement_lines l ON l.id = x.statement_line_id
       LEFT JOIN ledger_transfers t ON t.id = x.ledger_transfer_id
      WHERE x.id = ANY($1::uuid[]) ORDER BY x.id FOR UPDATE OF x`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

function unresolvable(exception: LockedException): string | undefined {
  if (exception.status === 'resolved') return 'This exception is already resolved';
  if (exception.adjustment_id) return 'An adjusting entry for this exception awaits a second approval';
  return undefined;
}

/**
 * The change the bank's statement says the settlement account needs, in cents (positive: the
 * ledger should debit the settlement account, money in that it lacks; negative: credit it).
 */
export function settlementCorrectionCents(
  exception: Pick<LockedException, 'kind' | 'direction' | 'amount_cents' | 'line_amount_cents' | 'transfer_amount_cents'>,
): bigint {
  const sign = exception.direction === 'credit' ? 1n : -1n;
  switch (exception.kind) {
    case 'unmatched_statement_line':
      return sign * exception.amount_cents;
    case 'unmatched_ledger_entry':
      return -sign * exception.amount_cents;
    case 'amount_mismatch':
      return sign * ((exception.line_amount_cents ?? exception.amount_cents) - (exception.transfer_amount_cents ?? 0n));
  }
}

async function resolveMatched(
  deps: ReconciliationDependencies,
  id: string,
  request: { matchWith: string; reason: string },
  actor: StaffActor,
): Promise<ResolveOutcome> {
  return retryOnWriteConflict(() =>
    deps.db.transaction(async (tx): Promise<ResolveOutcome> => {
      await lockReconciliation(tx);
      const locked = await lockExceptions(tx, isUuid(request.matchWith) ? [id, request.matchWith] : [id]);
      const exception = locked.get(id);
      if (!exception) return { kind: 'not_found' };
      const refuse = async (outcome: Exclude<ResolveOutcome, { exception: unknown }>) => {
        const refusal = 'message' in outcome ? outcome.message : outcome.kind;
        await recordAudit(
          tx,
          auditEntryOf(actor, {
            action: 'reconciliation.exception_resolve_refused',
            subject: id,
            outcome: 'failure',
            details: { reason: request.reason, resolution: 'matched', refusal },
          }),
        );
        return outcome;
      };
      const blocked = unresolvable(exception);
      if (blocked) return refuse({ kind: 'already_resolved', message: blocked });
      const other = request.matchWith === id ? undefined : locked.get(request.matchWith);
      if (!other || unresolvable(other))
        return refuse({ kind: 'invalid', field: 'matchWith', message: 'choose another open exception to match this one with' });
      const kinds = new Set([exception.kind, other.kind]);
      if (!kinds.has('unmatched_statement_line') || !kinds.has('unmatched_ledger_entry'))
        return refuse({ kind: 'invalid', field: 'matchWith', message: 'a match pairs a statement line with a ledger entry' });
      if (exception.settlement_account !== other.settlement_account || exception.direction !== other.direction || exception.amount_cents !== other.amount_cents)
        return refuse({ kind: 'invalid', field: 'matchWith', message: 'the two sides of a match have the same account, direction and amount' });
      const line = exception.kind === 'unmatched_statement_line' ? exception : other;
      const entry = exception.kind === 'unmatched_ledger_entry' ? exception : other;
      const at = sqlInstant(deps.clock);
      await tx.query(`UPDATE bank_statement_lines SET matched_transfer_id = $2, match_method = 'by_hand' WHERE id = $1 AND matched_transfer_id IS NULL`, [
        line.statement_line_id,
        entry.ledger_transfer_id,
      ]);
      await tx.query(
        `UPDATE reconciliation_exceptions
            SET status = 'resolved', resolution = 'matched', resolution_reason = $3, resolved_by = $4, resolved_at = coalesce($5::timestamptz, now()),
                matched_exception_id = CASE WHEN id = $1 THEN $2::uuid ELSE $1::uuid END
          WHERE id IN ($1, $2) AND status = 'open'`,
        [exception.id, other.id, request.reason, actor.staffId, at],
      );
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'reconciliation.exception_matched',
          subject: id,
          outcome: 'success',
          details: { reason: request.reason, matchWith: other.id, transferId: entry.ledger_transfer_id, amountCents: Number(exception.amount_cents) },
        }),
      );
      const resolved = await findException(tx, id);
      if (!resolved) throw new Error(`exception ${id} disappeared`);
      return { kind: 'resolved', exception: resolved };
    }),
  );
}

async function resolveAdjusted(deps: ReconciliationDependencies, id: string, reason: string, actor: StaffActor): Promise<ResolveOutcome> {
  const exception = (await lockExceptions(deps.db, [id])).get(id);
  if (!exception) return { kind: 'not_found' };
  const blocked = unresolvable(exception);
  const audit = (outcome: 'success' | 'failure', details: Record<string, string | number | null>) =>
    recordAudit(
      deps.db,
      auditEntryOf(actor, {
        action: outcome === 'success' ? 'reconciliation.exception_adjusted' : 'reconciliation.exception_resolve_refused',
        subject: id,
        outcome,
        details: { reason, resolution: 'adjusted', ...details },
      }),
    );
  if (blocked) {
    await audit('failure', { refusal: blocked });
    return { kind: 'already_resolved', message: blocked };
  }
  const correction = settlementCorrectionCents(exception);
  if (correction === 0n) {
    await audit('failure', { refusal: 'nothing to adjust' });
    return { kind: 'invalid', field: 'resolution', message: 'the statement and the ledger agree on this amount: nothing to adjust' };
  }
  const settlement = exception.settlement_account;
  const into = correction > 0n;
  const entry = {
    debitAccount: into ? settlement : 'reconciliationDifferences',
    creditAccount: into ? 'reconciliationDifferences' : settlement,
    amountCents: into ? correction : -correction,
    reason,
    exceptionId: id,
  };
  let outcome: Awaited<ReturnType<typeof requestAdjustment>>;
  try {
    outcome = await requestAdjustment(deps, entry, actor);
  } catch (error) {
    // Another member resolved it, or asked for its entry, between the check above and the entry's own transaction.
    if (!(error instanceof ExceptionNotOpenError)) throw error;
    await audit('failure', { refusal: 'resolved meanwhile' });
    return { kind: 'already_resolved', message: 'This exception was resolved meanwhile' };
  }
  if (outcome.kind === 'business_day_closed') return outcome;
  if (outcome.kind === 'invalid') {
    await audit('failure', { refusal: outcome.message });
    return { kind: 'invalid', field: 'resolution', message: outcome.message };
  }
  await audit('success', {
    adjustmentId: outcome.adjustment.id,
    status: outcome.kind,
    amountCents: outcome.adjustment.amountCents,
    debitAccount: outcome.adjustment.debitAccount,
    creditAccount: outcome.adjustment.creditAccount,
  });
  const current = await findException(deps.db, id);
  if (!current) throw new Error(`exception ${id} disappeared`);
  return { kind: outcome.kind === 'posted' ? 'resolved' : 'awaiting_approval', exception: current };
}

/** `POST /staff/reconciliation/exceptions/{id}/resolve`. Audited, refusals too. */
export async function resolveException(deps: ReconciliationDependencies, id: string, request: ResolveRequest, actor: StaffActor): Promise<ResolveOutcome> {
  if (!isUuid(id)) return { kind: 'not_found' };
  return request.resolution === 'matched' ? resolveMatched(deps, id, request, actor) : resolveAdjusted(deps, id, request.reason, actor);
}
