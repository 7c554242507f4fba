import type { Queryable } from '../db/database.ts';
import { maxViolationsReported } from './limits.ts';

/**
 * Verifies docs/ledger.md's four invariants over the whole database, from the stored rows alone:
 * 1. the sums of debits and of credits agree, posted and pending;
 * 2. every account's counters equal what its transfers add up to (a pending transfer counts as
 *    pending while its state is pending; a post counts as posted; a void or an expiry counts for
 *    nothing);
 * 3. no account breaks its limit flag;
 * 4. every pending transfer is resolved at most once, as its state says, never after its deadline.
 * Reads everything, so it is for operators and tests, not for request paths.
 */

export type LedgerInvariant = 'debits_equal_credits' | 'counters_match_transfers' | 'limit_flags_respected' | 'pending_resolved_once_in_time';

export interface LedgerViolation {
  invariant: LedgerInvariant;
  /** The account or transfer concerned; null for a ledger-wide sum. */
  subjectId: string | null;
  detail: string;
}

export interface LedgerCheck {
  ok: boolean;
  accounts: number;
  transfers: number;
  violations: LedgerViolation[];
}

/** The ledger's totals: posted and pending debits equal credits across all accounts; also counts accounts and transfers. */
async function checkTotals(db: Queryable, violations: LedgerViolation[]): Promise<{ accounts: bigint; transfers: bigint }> {
  // Sums are numeric (a sum of bigints may pass 2^63), compared as exact decimal text.
  const [totals] = await db.query<{
    accounts: bigint;
    debits_posted: string;
    credits_posted: string;
    debits_pending: string;
    credits_pending: string;
    transfers: bigint;
  }>(
    `SELECT count(*) AS accounts,
       coalesce(sum(debits_posted), 0)::text AS debits_posted, coalesce(sum(credits_posted), 0)::text AS credits_posted,
       coalesce(sum(debits_pending), 0)::text AS debits_pending, coalesce(sum(credits_pending), 0)::text AS credits_pending,
       (SELECT count(*) FROM ledger_transfers) AS transfers
     FROM ledger_accounts`,
  );
  if (!totals) throw new Error('checkLedger: the totals query answered no row');
  if (totals.debits_posted !== totals.credits_posted) {
    violations.push({
      invariant: 'debits_equal_credits',
      subjectId: null,
      detail: `posted debits ${totals.debits_posted} differ from posted credits ${totals.credits_posted}`,
    });
  }
  if (totals.debits_pending !== totals.credits_pending) {
    violations.push({
      invariant: 'debits_equal_credits',
      subjectId: null,
      detail: `pending debits ${totals.debits_pending} differ from pending credits ${totals.credits_pending}`,
    });
  }
  return totals;
}

/** Each account's counters equal what its transfers add up to (and no transfer names a missing account). */
async function checkCounters(db: Queryable, violations: LedgerViolation[]): Promise<void> {
  const counterRows = await db.query<{ id: string; stored: string; derived: string }>(
    `WITH legs AS (
       SELECT t.debit_account_id AS account_id,
         CASE WHEN t.flags & 2 <> 0 AND s.state = 'pending' THEN t.amount ELSE 0 END AS debits_pending,
         CASE WHEN t.flags & 10 = 0 THEN t.amount ELSE 0 END AS debits_posted,
         0::bigint AS credits_pending, 0::bigint AS credits_posted
       FROM ledger_transfers t LEFT JOIN pending_transfer_states s ON s.pending_id = t.id
       UNION ALL
       SELECT t.credit_account_id, 0, 0,
         CASE WHEN t.flags & 2 <> 0 AND s.state = 'pending' THEN t.amount ELSE 0 END,
         CASE WHEN t.flags & 10 = 0 THEN t.amount ELSE 0 END
       FROM ledger_transfers t LEFT JOIN pending_transfer_states s ON s.pending_id = t.id
     ),
     derived AS (
       SELECT account_id, sum(debits_pending) AS debits_pending, sum(debits_posted) AS debits_posted,
         sum(credits_pending) AS credits_pending, sum(credits_posted) AS credits_posted
       FROM legs GROUP BY account_id
     )
     SELECT coalesce(a.id, d.account_id) AS id,
       concat_ws(' ', a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted) AS stored,
       concat_ws(' ', coalesce(d.debits_pending, 0), coalesce(d.debits_posted, 0),
         coalesce(d.credits_pending, 0), coalesce(d.credits_posted, 0)) AS derived
     FROM ledger_accounts a FULL JOIN derived d ON d.account_id = a.id
     WHERE a.id IS NULL
       OR (a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted)
         IS DISTINCT FROM (coalesce(d.debits_pending, 0), coalesce(d.debits_posted, 0),
           coalesce(d.credits_pending, 0), coalesce(d.credits_posted, 0))
     LIMIT $1`,
    [maxViolationsReported],
  );
  for (const row of counterRows) {
    violations.push({
      invariant: 'counters_match_transfers',
      subjectId: row.id,
      detail: `counters (debits pending, posted, credits pending, posted) are ${row.stored} but its transfers add up to ${row.derived}`,
    });
  }
}

/** No account with a limit flag has gone past it. */
async function checkLimitFlags(db: Queryable, violations: LedgerViolation[]): Promise<void> {
  const flagRows = await db.query<{ id: string }>(
    `SELECT id FROM ledger_accounts
     WHERE (flags & 2 <> 0 AND debits_pending + debits_posted > credits_posted)
        OR (flags & 4 <> 0 AND credits_pending + credits_posted > debits_posted)
     LIMIT $1`,
    [maxViolationsReported],
  );
  for (const row of flagRows) {
    violations.push({ invariant: 'limit_flags_respected', subjectId: row.id, detail: 'its debits or credits exceed its limit' });
  }
}

/** Each pending transfer is resolved at most once, in time, by a matching posting or voiding transfer. */
async function checkPendingTransfers(db: Queryable, violations: LedgerViolation[]): Promise<void> {
  const pendingRows = await db.query<{ id: string; problem: string }>(
    `SELECT id, problem FROM (
     SELECT p.id, CASE
         WHEN s.pending_id IS NULL THEN 'has no state'
         WHEN (SELECT count(*) FROM ledger_transfers r WHERE r.pending_id = p.id) > 1 THEN 'is resolved more than once'
         WHEN s.state = 'posted' AND (r.id IS NULL OR r.flags & 4 = 0) THEN 'is posted without a posting transfer'
         WHEN s.state = 'voided' AND (r.id IS NULL OR r.flags & 8 = 0) THEN 'is voided without a voiding transfer'
         WHEN s.state IN ('pending', 'expired') AND r.id IS NOT NULL THEN 'is resolved but its state is ' || s.state
         WHEN r.id IS NOT NULL AND r.id IS DISTINCT FROM s.resolved_by_id THEN 'names another transfer as its resolution'
         WHEN r.id IS NOT NULL AND s.expires_at IS NOT NULL AND r.created_at >= s.expires_at THEN 'was resolved after it expired'
         WHEN s.state = 'expired' AND (s.expires_at IS NULL OR s.resolved_at < s.expires_at) THEN 'expired before its deadline'
         WHEN r.id IS NOT NULL AND (r.debit_account_id <> p.debit_account_id OR r.credit_account_id <> p.credit_account_id
           OR r.ledger <> p.ledger OR r.code <> p.code) THEN 'is resolved by a transfer between other accounts'
         WHEN r.flags & 4 <> 0 AND r.amount > p.amount THEN 'is posted for more than it reserved'
         WHEN r.flags & 8 <> 0 AND r.amount <> p.amount THEN 'is voided for another amount'
       END AS problem
     FROM ledger_transfers p
     LEFT JOIN pending_transfer_states s ON s.pending_id = p.id
     LEFT JOIN LATERAL (SELECT * FROM ledger_transfers r WHERE r.pending_id = p.id LIMIT 1) r ON true
     WHERE p.flags & 2 <> 0
     UNION ALL
     SELECT s.pending_id, 'has a state but is not a pending transfer'
     FROM pending_transfer_states s JOIN ledger_transfers p ON p.id = s.pending_id
     WHERE p.flags & 2 = 0
     UNION ALL
     SELECT r.id, 'resolves a transfer that is not pending'
     FROM ledger_transfers r JOIN ledger_transfers p ON p.id = r.pending_id
     WHERE p.flags & 2 = 0
     ) AS checked
     WHERE problem IS NOT NULL
     LIMIT $1`,
    [maxViolationsReported],
  );
  for (const row of pendingRows) {
    violations.push({ invariant: 'pending_resolved_once_in_time', subjectId: row.id, detail: `pending transfer ${row.problem}` });
  }
}

export async function checkLedger(db: Queryable): Promise<LedgerCheck> {
  const violations: LedgerViolation[] = [];
  const totals = await checkTotals(db, violations);
  await checkCounters(db, violations);
  await checkLimitFlags(db, violations);
  await checkPendingTransfers(db, violations);
  return {
    ok: violations.length === 0,
    accounts: Number(totals.accounts),
    transfers: Number(totals.transfers),
    violations,
  };
}
