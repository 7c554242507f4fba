import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';

export interface StatementAccountRow {
  id: string;
  type: 'checking' | 'savings';
  number: string;
  name: string;
  ledger_account_id: string | null;
  first_name: string;
  last_name: string;
  /** From the customer's latest approved identity review; null if none was ever approved. */
  address: string | null;
  state: string | null;
  country: string | null;
}

/** The account, if it is this customer's; someone else's account is not found, like a missing one. */
export async function findStatementAccount(db: Queryable, accountId: string, customerId: string): Promise<StatementAccountRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) return undefined;
  const [row] = await db.query<StatementAccountRow>(
    `SELECT a.id, a.type, a.number, a.name, a.ledger_account_id, c.first_name, c.last_name, r.address, r.state, r.country
     FROM customer_accounts a
     JOIN customers c ON c.id = a.customer_id
     LEFT JOIN LATERAL (
       SELECT address, state, country FROM identity_reviews
       WHERE customer_id = c.id AND status = 'approved' ORDER BY decided_at DESC LIMIT 1
     ) r ON true
     WHERE a.id = $1 AND a.customer_id = $2`,
    [accountId, customerId],
  );
  return row;
}

/**
 * YYYY-MM of this month back to the month the account opened, in `timeZone`, newest first, at
 * most `limit`; none when the account is not this customer's. An account whose opening the clock
 * has not reached yet (a clock set back) still has this month.
 */
export async function listStatementMonths(db: Queryable, accountId: string, customerId: string, timeZone: string, limit: number): Promise<string[]> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) return [];
  const rows = await db.query<{ month: string }>(
    `SELECT to_char(month, 'YYYY-MM') AS month
     FROM customer_accounts a
     CROSS JOIN LATERAL generate_series(
       date_trunc('month', now() AT TIME ZONE $3),
       least(date_trunc('month', a.opened_at AT TIME ZONE $3), date_trunc('month', now() AT TIME ZONE $3)),
       interval '-1 month') AS month
     WHERE a.id = $1 AND a.customer_id = $2
     ORDER BY month DESC
     LIMIT $4`,
    [accountId, customerId, timeZone, limit],
  );
  return rows.map((row) => row.month);
}

export interface LedgerSnapshotRow {
  code: number;
  credits_posted: bigint;
  debits_posted: bigint;
  /** The newest transfer on the account this statement sees; 0 when it has none. */
  last_sequence: bigint;
  snapshot_at: Date;
  /** Midnight at the start of `from` and after `to`, in the bank's time zone. */
  from_start: Date;
  to_end: Date;
}

/**
 * The account's posted counters and its newest transfer, read by one statement, so from one
 * snapshot: the counters are exactly the sum of the transfers up to that sequence (docs/ledger.md
 * invariant 2). For one account the sequence order is the commit order (ledger/history.ts), so the
 * transfers this statement sees are exactly those with a sequence up to `last_sequence`.
 */
export async function readLedgerSnapshot(
  db: Queryable,
  ledgerAccountId: string,
  from: string,
  to: string,
  timeZone: string,
): Promise<LedgerSnapshotRow | undefined> {
  const [row] = await db.query<LedgerSnapshotRow>(
    `SELECT a.code, a.credits_posted, a.debits_posted, now() AS snapshot_at,
       coalesce(greatest(
         (SELECT max(sequence) FROM ledger_transfers WHERE debit_account_id = a.id),
         (SELECT max(sequence) FROM ledger_transfers WHERE credit_account_id = a.id)), 0)::bigint AS last_sequence,
       ($2::date)::timestamp AT TIME ZONE $4 AS from_start,
       ($3::date + 1)::timestamp AT TIME ZONE $4 AS to_end
     FROM ledger_accounts a WHERE a.id = $1`,
    [ledgerAccountId, from, to, timeZone],
  );
  return row;
}

export interface PostedSinceChunkRow {
  /** How many transfers the chunk holds (fewer than asked: the account has no older ones). */
  transfers: bigint;
  lowest_sequence: bigint | null;
  /** Posted money in minus money out among the chunk's transfers dated `since` or later. */
  net_cents: string;
  /** The oldest transfer of the chunk dated `since` or later. */
  first_since_sequence: bigint | null;
  /** Whether the chunk holds a transfer dated before `since` by more than the allowed skew. */
  passed_since: boolean;
}

/**
 * One chunk of the account's transfers, newest first, below `beforeSequence`, summed: what the
 * posted ones dated `since` or later add to the balance. Each side is one index scan on
 * (account, sequence), bounded by the chunk size.
 */
export async function sumPostedSinceChunk(
  db: Queryable,
  ledgerAccountId: string,
  beforeSequence: bigint,
  since: Date,
  skewSeconds: number,
  chunkSize: number,
): Promise<PostedSinceChunkRow> {
  const [row] = await db.query<PostedSinceChunkRow>(
    `WITH chunk AS (
       SELECT * FROM (
         (SELECT sequence, -amount AS signed_amount, flags, created_at FROM ledger_transfers
          WHERE debit_account_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT $5)
         UNION ALL
         (SELECT sequence, amount, flags, created_at FROM ledger_transfers
          WHERE credit_account_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT $5)
       ) AS both_sides
       ORDER BY sequence DESC LIMIT $5)
     SELECT count(*) AS transfers, min(sequence) AS lowest_sequence,
       coalesce(sum(signed_amount) FILTER (WHERE flags & 10 = 0 AND created_at >= $3), 0)::text AS net_cents,
       min(sequence) FILTER (WHERE created_at >= $3) AS first_since_sequence,
       coalesce(bool_or(created_at < $3::timestamptz - make_interval(secs => $4)), false) AS passed_since
     FROM chunk`,
    [ledgerAccountId, beforeSequence.toString(), since, skewSeconds, chunkSize],
    { name: 'statement_posted_since_chunk' },
  );
  if (!row) throw new Error('the chunk sum answered no row');
  return row;
}

export interface StatementTransferRow {
  sequence: bigint;
  /** The payment's id: the pending transfer's for a post, the transfer's own otherwise. */
  transfer_id: string;
  is_credit: boolean;
  amount: bigint;
  code: number;
  flags: number;
  created_at: Date;
  /** The date in the bank's time zone, YYYY-MM-DD. */
  local_date: string;
  /** The local time with its offset from UTC, for OFX: YYYYMMDDHHMMSS.XXX and seconds east of UTC. */
  local_stamp: string;
  utc_offset_seconds: number;
  /** The payment beside the transfer (docs/decisions/016); null for a transfer no payment made. */
  kind: PaymentKind | null;
  message: string | null;
  counterparty_name: string | null;
  counterparty_bank_name: string | null;
  details: Record<string, string> | null;
}

/**
 * The account's transfers after `afterSequence` up to `lastSequence`, oldest first, at most
 * `limit`: every kind (pending and void too), so that the caller sees how far the dates have
 * gone; the payment's words are joined to the posted ones only.
 */
export async function readTransferBatch(
  db: Queryable,
  ledgerAccountId: string,
  afterSequence: bigint,
  lastSequence: bigint,
  limit: number,
  timeZone: string,
): Promise<StatementTransferRow[]> {
  return db.query<StatementTransferRow>(
    `SELECT t.sequence, coalesce(t.pending_id, t.id) AS transfer_id, t.credit_account_id = $1 AS is_credit, t.amount, t.code, t.flags,
       t.created_at, to_char(t.created_at AT TIME ZONE $5, 'YYYY-MM-DD') AS local_date,
       to_char(t.created_at AT TIME ZONE $5, 'YYYYMMDDHH24MISS.MS') AS local_stamp,
       extract(epoch FROM (t.created_at AT TIME ZONE $5) - (t.created_at AT TIME ZONE 'UTC'))::integer AS utc_offset_seconds,
       p.kind, p.message, p.counterparty_name, p.counterparty_bank_name, p.details
     FROM (
       (SELECT id, sequence, pending_id, credit_account_id, amount, code, flags, created_at FROM ledger_transfers
        WHERE debit_account_id = $1 AND sequence > $2 AND sequence <= $3 ORDER BY sequence LIMIT $4)
       UNION ALL
       (SELECT id, sequence, pending_id, credit_account_id, amount, code, flags, created_at FROM ledger_transfers
        WHERE credit_account_id = $1 AND sequence > $2 AND sequence <= $3 ORDER BY sequence LIMIT $4)
     ) AS t
     LEFT JOIN payments p ON t.flags & 10 = 0 AND p.id = coalesce(t.pending_id, t.id)
     ORDER BY t.sequence
     LIMIT $4`,
    [ledgerAccountId, afterSequence.toString(), lastSequence.toString(), limit, timeZone],
    { name: 'statement_transfer_batch' },
  );
}
