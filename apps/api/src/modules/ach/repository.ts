import type { Queryable } from '../../db/database.ts';

/**
 * What waits at the ACH rail and has not gone out in a file yet: customers' payments to other
 * banks (credits), their bill payments to billers paid by ACH (credits; a simulator biller's
 * have no routing number and no entry), their deposits pulled from other banks (debits) and the
 * bank's micro-deposits (credits). Oldest first.
 */
export interface UnsentEntryRow {
  payment_id: string | null;
  micro_deposit_id: string | null;
  kind: 'external' | 'bill' | 'deposit' | 'micro_deposit';
  amount_cents: bigint;
  /** The other bank's routing number. */
  route_number: string;
  /** Plain for a payment to another bank (the customer typed it); null where only the encrypted one is kept. */
  account_number: string | null;
  account_number_encrypted: Buffer | Uint8Array | null;
  account_type: 'checking' | 'savings' | null;
  /** A bill payment: the customer's account number at the biller, encrypted (bill_payees), and the customer's name. */
  bill_account_encrypted: Buffer | Uint8Array | null;
  name: string;
  created_at: Date;
}

export async function unsentAchEntries(tx: Queryable, limit: number): Promise<UnsentEntryRow[]> {
  return tx.query<UnsentEntryRow>(
    `SELECT * FROM (
       SELECT p.id AS payment_id, NULL::uuid AS micro_deposit_id, p.kind, p.amount_cents,
              coalesce(f.route_number, p.counterparty_route_number) AS route_number,
              CASE WHEN p.kind IN ('external', 'bill') THEN p.counterparty_account_number END AS account_number,
              f.account_number_encrypted, f.account_type, b.account_number_encrypted AS bill_account_encrypted,
              CASE WHEN p.kind = 'bill' THEN c.first_name || ' ' || c.last_name ELSE p.counterparty_name END AS name, p.created_at
       FROM payments p LEFT JOIN funding_sources f ON f.id = p.funding_source_id
         LEFT JOIN bill_payees b ON p.kind = 'bill' AND b.id = (p.details ->> 'billPayeeId')::uuid
         LEFT JOIN customers c ON p.kind = 'bill' AND c.id = p.customer_id
       WHERE p.status = 'pending' AND p.rail = 'ach'
         AND (p.kind IN ('external', 'deposit') OR (p.kind = 'bill' AND p.counterparty_route_number IS NOT NULL))
         AND NOT EXISTS (SELECT 1 FROM ach_entries e WHERE e.payment_id = p.id)
       UNION ALL
       SELECT NULL::uuid, m.id, 'micro_deposit', m.amount_cents, f.route_number, NULL, f.account_number_encrypted, f.account_type, NULL,
              f.account_name, m.created_at
       FROM micro_deposits m JOIN funding_sources f ON f.id = m.funding_source_id
       WHERE m.status = 'sent' AND NOT EXISTS (SELECT 1 FROM ach_entries e WHERE e.micro_deposit_id = m.id)
         AND EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = m.id)
     ) AS unsent ORDER BY created_at LIMIT $1`,
    [limit],
  );
}

export async function nextTraceSequences(tx: Queryable, count: number): Promise<bigint[]> {
  const rows = await tx.query<{ value: bigint }>("SELECT nextval('ach_trace_sequence') AS value FROM generate_series(1, $1)", [count]);
  return rows.map((row) => row.value);
}

export async function filesCreatedOn(tx: Queryable, day: string): Promise<number> {
  const [row] = await tx.query<{ count: number }>(`SELECT count(*)::integer AS count FROM ach_files WHERE (created_at AT TIME ZONE 'UTC')::date = $1::date`, [
    day,
  ]);
  return row?.count ?? 0;
}

export interface NewAchFile {
  id: string;
  fileIdModifier: string;
  effectiveDate: string;
  entryCount: number;
  debitTotalCents: bigint;
  creditTotalCents: bigint;
  createdBy: string;
  createdAt: Date;
}

export async function insertAchFile(tx: Queryable, file: NewAchFile): Promise<void> {
  await tx.query(
    `INSERT INTO ach_files (id, file_id_modifier, effective_date, entry_count, debit_total_cents, credit_total_cents, created_by, created_at)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8)`,
    [
      file.id,
      file.fileIdModifier,
      file.effectiveDate,
      file.entryCount,
      file.debitTotalCents.toString(),
      file.creditTotalCents.toString(),
      file.createdBy,
      file.createdAt,
    ],
  );
}

export async function insertAchEntries(
  tx: Queryable,
  fileId: string,
  entries: readonly { traceNumber: string; paymentId: string | null; microDepositId: string | null; transactionCode: number; amountCents: bigint }[],
): Promise<void> {
  await tx.query(
    `INSERT INTO ach_entries (trace_number, file_id, payment_id, micro_deposit_id, transaction_code, amount_cents)
     SELECT trace, $1, payment, micro, code, amount FROM unnest($2::text[], $3::uuid[], $4::uuid[], $5::smallint[], $6::bigint[]) AS e (trace, payment, micro, code, amount)`,
    [
      fileId,
      entries.map((entry) => entry.traceNumber),
      entries.map((entry) => entry.paymentId),
      entries.map((entry) => entry.microDepositId),
      entries.map((entry) => entry.transactionCode),
      entries.map((entry) => entry.amountCents.toString()),
    ],
  );
}

export interface AchEntryRow {
  trace_number: string;
  payment_id: string | null;
  micro_deposit_id: string | null;
  amount_cents: bigint;
}

export async function findAchEntry(db: Queryable, traceNumber: string): Promise<AchEntryRow | undefined> {
  const [row] = await db.query<AchEntryRow>('SELECT trace_number, payment_id, micro_deposit_id, amount_cents FROM ach_entries WHERE trace_number = $1', [
    traceNumber,
  ]);
  return row;
}

export interface PendingAchRow {
  id: string;
  kind: string;
  amount_cents: bigint;
  name: string;
  customer: string;
  created_at: Date;
  settle_at: Date | null;
  trace_number: string | null;
}

/** The staff view of the ACH rail: every pending payment there, with its trace number once it went out in a file. */
export async function pendingAchPayments(db: Queryable, limit: number): Promise<PendingAchRow[]> {
  return db.query<PendingAchRow>(
    `SELECT p.id, p.kind, p.amount_cents, p.counterparty_name AS name, c.email AS customer, p.created_at, p.settle_at, e.trace_number
     FROM payments p JOIN customers c ON c.id = p.customer_id LEFT JOIN ach_entries e ON e.payment_id = p.id
     WHERE p.status = 'pending' AND p.rail = 'ach' ORDER BY p.created_at LIMIT $1`,
    [limit],
  );
}

/** Until the transaction ends, no one else builds an ACH file: two at once would put an entry in both. */
export async function lockAchFiles(tx: Queryable, lockKey: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
}

export interface DayCreditRow {
  payment_id: string;
  amount_cents: bigint;
  route_number: string;
  account_number: string | null;
  /** A bill payment: the customer's account number at the biller, encrypted; the name is then the customer's. */
  bill_account_encrypted: Buffer | Uint8Array | null;
  name: string;
  trace_number: string | null;
}

/**
 * Customers' pending ACH payments to other banks and to billers paid by ACH (credits) expected to
 * settle on `day` (UTC), with the trace number of the file they went out in, if any: the staff
 * console's export of a day.
 */
export async function pendingAchCreditsOn(db: Queryable, day: string, limit: number): Promise<DayCreditRow[]> {
  return db.query<DayCreditRow>(
    `SELECT p.id AS payment_id, p.amount_cents, p.counterparty_route_number AS route_number, p.counterparty_account_number AS account_number,
            b.account_number_encrypted AS bill_account_encrypted,
            CASE WHEN p.kind = 'bill' THEN c.first_name || ' ' || c.last_name ELSE p.counterparty_name END AS name, e.trace_number
     FROM payments p LEFT JOIN ach_entries e ON e.payment_id = p.id
       LEFT JOIN bill_payees b ON p.kind = 'bill' AND b.id = (p.details ->> 'billPayeeId')::uuid
       LEFT JOIN customers c ON p.kind = 'bill' AND c.id = p.customer_id
     WHERE p.status = 'pending' AND p.rail = 'ach' AND (p.kind = 'external' OR (p.kind = 'bill' AND p.counterparty_route_number IS NOT NULL))
       AND p.settle_at >= $1::date::timestamp AT TIME ZONE 'UTC' AND p.settle_at < ($1::date + 1)::timestamp AT TIME ZONE 'UTC'
     ORDER BY p.settle_at, p.id LIMIT $2`,
    [day, limit],
  );
}
