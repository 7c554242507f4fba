import { sqlInstant, type Clock } from '../db/clock.ts';
import type { Database, Queryable } from '../db/database.ts';
import { assert } from './assert.ts';
import { maxExpireBatchSize, maxExpireRounds } from './limits.ts';
import { retryOnWriteConflict } from './retry.ts';
import { accountFromRow, assertAccount, type AccountRow } from './rows.ts';
import { lockAccountsStatement } from './transfer-sql.ts';
import type { LedgerAccount } from './types.ts';

export interface ExpireResult {
  expiredCount: number;
  /** False when the sweep stopped at its round limit with expired reservations left. */
  finished: boolean;
}

interface ExpiringRow {
  pending_id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount: bigint;
}

/**
 * The background sweep: releases the reservation of every pending transfer whose timeout has
 * passed, oldest deadline first, and marks it expired. A pending transfer past its deadline can
 * no longer be posted or voided even before the sweep reaches it; the sweep only gives the money
 * back. Without a clock the transaction's now() decides what has expired (db/clock.ts); tests
 * move a clock instead of waiting.
 */
export async function expirePendingTransfers(db: Database, clock?: Clock): Promise<ExpireResult> {
  let expiredCount = 0;
  for (let round = 0; round < maxExpireRounds; round += 1) {
    const { found, expired } = await retryOnWriteConflict(() => db.transaction((tx) => expireOneBatch(tx, sqlInstant(clock))));
    expiredCount += expired;
    if (found < maxExpireBatchSize) return { expiredCount, finished: true };
  }
  return { expiredCount, finished: false };
}

async function expireOneBatch(tx: Queryable, now: Date | null): Promise<{ found: number; expired: number }> {
  const candidates = await tx.query<ExpiringRow>(
    `SELECT s.pending_id, t.debit_account_id, t.credit_account_id, t.amount
     FROM pending_transfer_states s JOIN ledger_transfers t ON t.id = s.pending_id
     WHERE s.state = 'pending' AND s.expires_at <= coalesce($1::timestamptz, now())
     ORDER BY s.expires_at, t.sequence
     LIMIT $2`,
    [now, maxExpireBatchSize],
  );
  if (candidates.length === 0) return { found: 0, expired: 0 };

  // The same lock order as every batch of transfers, then a second look under the locks: a post or
  // void that committed in between has already resolved some of these.
  const accountIds = [...new Set(candidates.flatMap((row) => [row.debit_account_id, row.credit_account_id]))];
  const accountRows = await tx.query<AccountRow>(lockAccountsStatement.text, [accountIds], {
    name: lockAccountsStatement.name,
  });
  const accounts = new Map<string, LedgerAccount>(accountRows.map((row) => [row.id, accountFromRow(row)]));
  const stillPending = await tx.query<{ pending_id: string }>(
    `SELECT s.pending_id
     FROM unnest($1::uuid[]) AS wanted (id) JOIN pending_transfer_states AS s ON s.pending_id = wanted.id
     WHERE s.state = 'pending'`,
    [candidates.map((row) => row.pending_id)],
  );
  const stillPendingIds = new Set(stillPending.map((row) => row.pending_id));
  const expiring = candidates.filter((row) => stillPendingIds.has(row.pending_id));
  if (expiring.length === 0) return { found: candidates.length, expired: 0 };

  for (const row of expiring) {
    const debit = accounts.get(row.debit_account_id);
    const credit = accounts.get(row.credit_account_id);
    assert(debit !== undefined && credit !== undefined, `the accounts of pending ${row.pending_id} are missing`);
    assert(debit.debitsPendingCents >= row.amount, `account ${debit.id} lost part of a reservation`);
    assert(credit.creditsPendingCents >= row.amount, `account ${credit.id} lost part of a reservation`);
    accounts.set(debit.id, { ...debit, debitsPendingCents: debit.debitsPendingCents - row.amount });
    accounts.set(credit.id, { ...credit, creditsPendingCents: credit.creditsPendingCents - row.amount });
  }
  const changed = [...accounts.values()];
  for (const account of changed) assertAccount(account);

  const [result] = await tx.query<{ state_count: bigint; accounts: Array<[string, string, string]> }>(
    `WITH expired AS (
       UPDATE pending_transfer_states AS s SET state = 'expired', resolved_at = coalesce($2::timestamptz, now())
       FROM unnest($1::uuid[]) AS wanted (id)
       WHERE s.pending_id = wanted.id AND s.state = 'pending'
       RETURNING s.pending_id
     ),
     released AS (
       UPDATE ledger_accounts AS a SET debits_pending = c.debits_pending, credits_pending = c.credits_pending
       FROM unnest($3::uuid[], $4::bigint[], $5::bigint[]) AS c(id, debits_pending, credits_pending)
       WHERE a.id = c.id
       RETURNING a.id, a.debits_pending, a.credits_pending
     )
     SELECT (SELECT count(*) FROM expired) AS state_count,
       (SELECT coalesce(json_agg(json_build_array(id, debits_pending::text, credits_pending::text)), '[]')
        FROM released) AS accounts`,
    [
      expiring.map((row) => row.pending_id),
      now,
      changed.map((account) => account.id),
      changed.map((account) => account.debitsPendingCents.toString()),
      changed.map((account) => account.creditsPendingCents.toString()),
    ],
  );
  assert(result !== undefined && Number(result.state_count) === expiring.length, 'a reservation expired twice');
  assert(result.accounts.length === changed.length, 'not every released account was updated');
  return { found: candidates.length, expired: expiring.length };
}
