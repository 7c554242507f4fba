import type { Queryable } from '../db/database.ts';
import { assert, assertInteger, normalizeUuid } from './assert.ts';
import { amountMaxCents, defaultPageSize, maxLookupSize, maxPageSize } from './limits.ts';
import { isPendingState, qualified, transferColumns, transferFromRow, type TransferRow } from './rows.ts';
import type { LedgerTransfer, PendingState } from './types.ts';

/** The transfers found, in the order asked; ids not found are left out, as in TigerBeetle. */
export async function lookupTransfers(db: Queryable, ids: readonly string[]): Promise<LedgerTransfer[]> {
  assert(ids.length <= maxLookupSize, `a lookup asks for at most ${maxLookupSize} ids`);
  if (ids.length === 0) return [];
  const normalized = ids.map((id) => normalizeUuid(id, 'transfer id'));
  const rows = await db.query<TransferRow>(
    `SELECT ${qualified('t', transferColumns)}
     FROM unnest($1::uuid[]) AS wanted (id) JOIN ledger_transfers AS t ON t.id = wanted.id`,
    [[...new Set(normalized)]],
    { name: 'ledger_lookup_transfers' },
  );
  const byId = new Map(rows.map((row) => [row.id, transferFromRow(row)]));
  return normalized.flatMap((id) => byId.get(id) ?? []);
}

export interface PendingTransferState {
  pendingId: string;
  state: PendingState;
  /** Null when the pending transfer has no timeout. */
  expiresAt: Date | null;
  /** The post or void transfer; null while pending or when it expired. */
  resolvedById: string | null;
  resolvedAt: Date | null;
}

interface PendingStateRow {
  pending_id: string;
  state: string;
  expires_at: Date | null;
  resolved_by_id: string | null;
  resolved_at: Date | null;
}

/** How each of these pending transfers stands now (pending, posted, voided or expired). */
export async function lookupPendingStates(db: Queryable, pendingIds: readonly string[]): Promise<PendingTransferState[]> {
  assert(pendingIds.length <= maxLookupSize, `a lookup asks for at most ${maxLookupSize} ids`);
  if (pendingIds.length === 0) return [];
  const normalized = pendingIds.map((id) => normalizeUuid(id, 'pending id'));
  const rows = await db.query<PendingStateRow>(
    `SELECT s.pending_id, s.state, s.expires_at, s.resolved_by_id, s.resolved_at
     FROM unnest($1::uuid[]) AS wanted (id) JOIN pending_transfer_states AS s ON s.pending_id = wanted.id`,
    [[...new Set(normalized)]],
  );
  const byId = new Map(rows.map((row) => [row.pending_id, pendingStateFromRow(row)]));
  return normalized.flatMap((id) => byId.get(id) ?? []);
}

function pendingStateFromRow(row: PendingStateRow): PendingTransferState {
  assert(isPendingState(row.state), `pending transfer ${row.pending_id} has state ${row.state}`);
  return {
    pendingId: row.pending_id,
    state: row.state,
    expiresAt: row.expires_at,
    resolvedById: row.resolved_by_id,
    resolvedAt: row.resolved_at,
  };
}

export interface AccountHistoryEntry {
  transfer: LedgerTransfer;
  /** For a pending transfer, how it stands now; null for every other transfer. */
  pendingState: PendingState | null;
}

export interface AccountHistoryPage {
  entries: AccountHistoryEntry[];
  /** Pass as `beforeSequence` for the next (older) page; null when this is the last page. */
  nextBeforeSequence: bigint | null;
}

export interface AccountHistoryOptions {
  limit?: number;
  /** Only transfers older than this one; absent for the newest page. */
  beforeSequence?: bigint;
}

/**
 * An account's transfers, newest first, a page at a time. The key is the sequence alone: it is
 * unique and increases with creation, so (sequence) orders as (created_at, id) would without ties.
 * A transfer's sequence is drawn while its batch holds the account's lock, so for one account the
 * sequence order is also the commit order: a later commit never lands behind a cursor.
 * Each side (debit, credit) is read with its own index scan, bounded by the page size, and merged,
 * so a page costs the same on an account with ten transfers or ten million.
 */
export async function accountHistory(db: Queryable, accountId: string, options: AccountHistoryOptions = {}): Promise<AccountHistoryPage> {
  const id = normalizeUuid(accountId, 'account id');
  const limit = options.limit ?? defaultPageSize;
  assertInteger(limit, 1, maxPageSize, 'limit');
  const before = options.beforeSequence ?? null;
  assert(before === null || before > 0n, 'beforeSequence must be positive');
  // One row more than the page says whether another page follows.
  const rows = await db.query<TransferRow & { pending_state: string | null }>(
    `SELECT page.*, s.state AS pending_state
     FROM (
       (SELECT ${transferColumns} FROM ledger_transfers
        WHERE debit_account_id = $1 AND sequence < $2::bigint
        ORDER BY sequence DESC LIMIT $3)
       UNION ALL
       (SELECT ${transferColumns} FROM ledger_transfers
        WHERE credit_account_id = $1 AND sequence < $2::bigint
        ORDER BY sequence DESC LIMIT $3)
     ) AS page
     LEFT JOIN pending_transfer_states s ON s.pending_id = page.id
     ORDER BY page.sequence DESC
     LIMIT $3`,
    // Without a cursor, the bound is above every sequence, so both scans seek on the index alike.
    [id, (before ?? amountMaxCents).toString(), limit + 1],
    { name: 'ledger_account_history' },
  );
  const entries = rows.slice(0, limit).map((row): AccountHistoryEntry => {
    const pendingState = row.pending_state;
    assert(pendingState === null || isPendingState(pendingState), `transfer ${row.id} has state ${pendingState}`);
    return { transfer: transferFromRow(row), pendingState };
  });
  let previous: bigint | null = before;
  for (const entry of entries) {
    assert(previous === null || entry.transfer.sequence < previous, 'history must be strictly newest first');
    previous = entry.transfer.sequence;
  }
  const last = entries.at(-1);
  return { entries, nextBeforeSequence: rows.length > limit && last ? last.transfer.sequence : null };
}
