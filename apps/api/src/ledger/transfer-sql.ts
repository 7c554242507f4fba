import { accountColumns, qualified, transferColumns } from './rows.ts';

/**
 * The statements of one transfer batch. Each takes arrays, so one prepared statement serves every
 * batch size; bigint arrays travel as decimal strings, which both drivers pass through unchanged
 * and PostgreSQL casts exactly.
 *
 * Ids are matched by joining with unnest($1), never with `id = ANY($1)`: once PostgreSQL switches a
 * prepared statement to its generic plan, `= ANY` over a parameter array can be re-checked row by
 * row against the whole array (measured: 200 ms to lock 2,000 accounts, against 8 ms by join).
 */

/** The accounts of the pending transfers a batch posts or voids, to know what to lock. */
export const readTransferAccountsStatement = {
  name: 'ledger_read_transfer_accounts',
  text: `
    SELECT t.debit_account_id, t.credit_account_id
    FROM unnest($1::uuid[]) AS wanted (id) JOIN ledger_transfers AS t ON t.id = wanted.id`,
};

/**
 * Locks in ascending id order: every writer takes its locks in the same order, so no two writers
 * can each hold a lock the other waits for. The lock node sits above the sort, so rows are locked
 * in the order they are returned.
 */
export const lockAccountsStatement = {
  name: 'ledger_lock_accounts',
  text: `
    SELECT ${qualified('a', accountColumns)}
    FROM unnest($1::uuid[]) AS wanted (id) JOIN ledger_accounts AS a ON a.id = wanted.id
    ORDER BY a.id FOR UPDATE OF a`,
};

/**
 * Read after the accounts are locked: the batch's own ids (exists, id_already_failed) and the
 * pending transfers it resolves, with their states, and whether their deadline has passed at $3
 * (null: the transaction's now(); see db/clock.ts). Any post, void or expiry of those pending
 * transfers locks the same accounts, so their states cannot change before the batch commits.
 */
export const readTransfersStatement = {
  name: 'ledger_read_transfers',
  text: `
    SELECT ${qualified('t', transferColumns)}, NULL::text AS failed_result, s.state AS pending_state,
      (s.expires_at IS NOT NULL AND s.expires_at <= coalesce($3::timestamptz, now())) AS deadline_passed
    FROM unnest($1::uuid[]) AS wanted (id)
      JOIN ledger_transfers AS t ON t.id = wanted.id
      LEFT JOIN pending_transfer_states AS s ON s.pending_id = t.id
    UNION ALL
    SELECT f.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, f.result, NULL, NULL
    FROM unnest($2::uuid[]) AS wanted (id) JOIN ledger_failed_transfers AS f ON f.id = wanted.id`,
};

/**
 * The whole write of a batch in one round trip: one unnest INSERT of the transfers, one unnest
 * UPDATE of the counters (by difference, returning the sums of the new values to compare with
 * the ones computed in memory), the pending states, and the ids that failed. Every transfer of
 * the batch gets the same created_at, $21 or else the transaction's now() (db/clock.ts); a pending
 * deadline is counted from it.
 */
export const writeBatchStatement = {
  name: 'ledger_write_batch',
  text: `
    WITH inserted AS (
      INSERT INTO ledger_transfers
        (id, debit_account_id, credit_account_id, amount, pending_id, timeout, ledger, code, flags, created_at)
      SELECT t.id, t.debit_account_id, t.credit_account_id, t.amount, t.pending_id, t.timeout, t.ledger, t.code,
        t.flags, coalesce($21::timestamptz, now())
      FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::uuid[], $6::integer[], $7::integer[],
        $8::integer[], $9::integer[]) WITH ORDINALITY
        AS t(id, debit_account_id, credit_account_id, amount, pending_id, timeout, ledger, code, flags, position)
      ORDER BY t.position
      RETURNING id, sequence
    ),
    changed_accounts AS (
      UPDATE ledger_accounts AS a SET
        debits_pending = a.debits_pending + c.debits_pending,
        debits_posted = a.debits_posted + c.debits_posted,
        credits_pending = a.credits_pending + c.credits_pending,
        credits_posted = a.credits_posted + c.credits_posted
      FROM unnest($10::uuid[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[])
        AS c(id, debits_pending, debits_posted, credits_pending, credits_posted)
      WHERE a.id = c.id
      RETURNING a.id, a.debits_pending, a.debits_posted, a.credits_pending, a.credits_posted
    ),
    changed_states AS (
      INSERT INTO pending_transfer_states AS s (pending_id, state, expires_at, resolved_by_id, resolved_at)
      SELECT c.pending_id, c.state,
        CASE WHEN c.timeout > 0 THEN coalesce($21::timestamptz, now()) + c.timeout * interval '1 second' END,
        c.resolved_by_id,
        CASE WHEN c.state <> 'pending' THEN coalesce($21::timestamptz, now()) END
      FROM unnest($15::uuid[], $16::text[], $17::integer[], $18::uuid[]) AS c(pending_id, state, timeout, resolved_by_id)
      ON CONFLICT (pending_id) DO UPDATE
        SET state = excluded.state, resolved_by_id = excluded.resolved_by_id, resolved_at = excluded.resolved_at
        WHERE s.state = 'pending'
      RETURNING s.pending_id
    ),
    failures AS (
      -- A transfer of the same id committed by another writer since this batch read (possible only
      -- when its fields differ, so that it locked other accounts) keeps the id from being marked
      -- failed; the count then falls short and the batch runs again.
      INSERT INTO ledger_failed_transfers (id, result)
      SELECT f.id, f.result FROM unnest($19::uuid[], $20::text[]) AS f (id, result)
      WHERE NOT EXISTS (SELECT 1 FROM ledger_transfers AS t WHERE t.id = f.id)
      RETURNING id
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_array(id, sequence::text)), '[]') FROM inserted) AS transfers,
      (SELECT count(*) FROM changed_accounts) AS account_count,
      (SELECT concat_ws(' ', coalesce(sum(debits_pending), 0), coalesce(sum(debits_posted), 0),
        coalesce(sum(credits_pending), 0), coalesce(sum(credits_posted), 0)) FROM changed_accounts) AS account_sums,
      (SELECT count(*) FROM changed_states) AS state_count,
      (SELECT count(*) FROM failures) AS failure_count,
      coalesce($21::timestamptz, now()) AS created_at`,
};

export interface WriteBatchRow {
  /** [id, sequence] pairs. */
  transfers: Array<[string, string]>;
  account_count: bigint;
  /** The sums of the four new counters over the changed accounts, as decimal text. */
  account_sums: string;
  state_count: bigint;
  failure_count: bigint;
  created_at: Date;
}
