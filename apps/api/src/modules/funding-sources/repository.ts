import type { FundingSourceStatus } from '@strongroom/contracts/funding-sources.ts';
import type { Queryable } from '../../db/database.ts';

export interface FundingSourceRow {
  id: string;
  customer_id: string;
  account_name: string;
  account_number_encrypted: Buffer | Uint8Array;
  last4: string;
  route_number: string;
  account_type: 'checking' | 'savings';
  status: FundingSourceStatus;
  verify_attempts: number;
  created_at: Date;
  verified_at: Date | null;
}

const columns = 'id, customer_id, account_name, account_number_encrypted, last4, route_number, account_type, status, verify_attempts, created_at, verified_at';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NewFundingSource {
  id: string;
  customerId: string;
  accountName: string;
  accountNumberEncrypted: Buffer;
  accountKey: Buffer;
  last4: string;
  routeNumber: string;
  accountType: 'checking' | 'savings';
  idempotencyKey: string | null;
  /** The hash of the body that came with the key (platform/idempotency.ts), so the key answers that body only. */
  requestHash: Buffer | null;
  /** Verified at once only for the bank's own seeds (the sandbox's demo customer, tests). */
  verified?: boolean;
}

/** Undefined when this account is already linked (live) by this customer, or the key was used. */
export async function insertFundingSource(db: Queryable, source: NewFundingSource): Promise<FundingSourceRow | undefined> {
  const [row] = await db.query<FundingSourceRow>(
    `INSERT INTO funding_sources (id, customer_id, account_name, account_number_encrypted, account_key, last4, route_number, account_type, status, idempotency_key, request_hash, verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $10 THEN 'verified' ELSE 'pending_verification' END, $9, $11, CASE WHEN $10 THEN now() END)
     ON CONFLICT DO NOTHING RETURNING ${columns}`,
    [
      source.id,
      source.customerId,
      source.accountName,
      source.accountNumberEncrypted,
      source.accountKey,
      source.last4,
      source.routeNumber,
      source.accountType,
      source.idempotencyKey,
      source.verified ?? false,
      source.requestHash,
    ],
  );
  return row;
}

/** One of this customer's sources (removed ones included, for the deposits that name them). */
export async function findFundingSource(
  db: Queryable,
  customerId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<FundingSourceRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const [row] = await db.query<FundingSourceRow>(
    `SELECT ${columns} FROM funding_sources WHERE id = $1 AND customer_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, customerId],
  );
  return row;
}

export async function findFundingSourceById(db: Queryable, id: string): Promise<FundingSourceRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const [row] = await db.query<FundingSourceRow>(`SELECT ${columns} FROM funding_sources WHERE id = $1`, [id]);
  return row;
}

/** The link a key made, with the hash of the body it came with (null for a link made before migration 0029). */
export async function findFundingSourceByKey(
  db: Queryable,
  customerId: string,
  idempotencyKey: string,
): Promise<(FundingSourceRow & { request_hash: Buffer | Uint8Array | null }) | undefined> {
  const [row] = await db.query<FundingSourceRow & { request_hash: Buffer | Uint8Array | null }>(
    `SELECT ${columns}, request_hash FROM funding_sources WHERE customer_id = $1 AND idempotency_key = $2`,
    [customerId, idempotencyKey],
  );
  return row;
}

export async function findLiveFundingSourceByAccount(db: Queryable, customerId: string, accountKey: Buffer): Promise<FundingSourceRow | undefined> {
  const [row] = await db.query<FundingSourceRow>(
    `SELECT ${columns} FROM funding_sources WHERE customer_id = $1 AND account_key = $2 AND status IN ('pending_verification', 'verified')`,
    [customerId, accountKey],
  );
  return row;
}

/** Newest first, removed ones left out. */
export async function listFundingSources(db: Queryable, customerId: string, limit: number): Promise<FundingSourceRow[]> {
  return db.query<FundingSourceRow>(
    `SELECT ${columns} FROM funding_sources WHERE customer_id = $1 AND status <> 'removed' ORDER BY created_at DESC, id DESC LIMIT $2`,
    [customerId, limit],
  );
}

/** Live links, and links made in the last 24 hours (those the bank sent micro-deposits to). */
export async function countLinks(db: Queryable, customerId: string): Promise<{ live: number; lastDay: number }> {
  const [row] = await db.query<{ live: number; last_day: number }>(
    `SELECT count(*) FILTER (WHERE status IN ('pending_verification', 'verified'))::integer AS live,
            count(*) FILTER (WHERE created_at > now() - interval '24 hours'
                               AND EXISTS (SELECT 1 FROM micro_deposits m WHERE m.funding_source_id = f.id))::integer AS last_day
     FROM funding_sources f WHERE customer_id = $1`,
    [customerId],
  );
  return { live: row?.live ?? 0, lastDay: row?.last_day ?? 0 };
}

export async function recordWrongAmounts(db: Queryable, id: string, maxAttempts: number): Promise<FundingSourceRow> {
  const [row] = await db.query<FundingSourceRow>(
    `UPDATE funding_sources SET verify_attempts = verify_attempts + 1,
       status = CASE WHEN verify_attempts + 1 >= $2 THEN 'failed' ELSE status END
     WHERE id = $1 AND status = 'pending_verification' RETURNING ${columns}`,
    [id, maxAttempts],
  );
  if (!row) throw new Error(`funding source ${id} was not waiting for verification`);
  return row;
}

export async function markVerified(db: Queryable, id: string): Promise<FundingSourceRow> {
  const [row] = await db.query<FundingSourceRow>(
    `UPDATE funding_sources SET status = 'verified', verified_at = now() WHERE id = $1 AND status = 'pending_verification' RETURNING ${columns}`,
    [id],
  );
  if (!row) throw new Error(`funding source ${id} was not waiting for verification`);
  return row;
}

/** Removal keeps the row: deposits made from it still name it. */
export async function markRemoved(db: Queryable, customerId: string, id: string): Promise<boolean> {
  if (!uuidPattern.test(id)) return false;
  const rows = await db.query(
    `UPDATE funding_sources SET status = 'removed', removed_at = now() WHERE id = $1 AND customer_id = $2 AND status <> 'removed' RETURNING id`,
    [id, customerId],
  );
  return rows.length === 1;
}

/** The other bank says the account is closed or does not exist: nothing more is pulled from it. */
export async function markFailed(db: Queryable, id: string): Promise<FundingSourceRow | undefined> {
  const [row] = await db.query<FundingSourceRow>(
    `UPDATE funding_sources SET status = 'failed' WHERE id = $1 AND status IN ('pending_verification', 'verified') RETURNING ${columns}`,
    [id],
  );
  return row;
}

export interface MicroDepositRow {
  id: string;
  funding_source_id: string;
  amount_cents: bigint;
  status: 'sent' | 'returned';
  created_at: Date;
}

export async function insertMicroDeposits(db: Queryable, fundingSourceId: string, deposits: readonly { id: string; amountCents: bigint }[]): Promise<void> {
  await db.query(
    `INSERT INTO micro_deposits (id, funding_source_id, amount_cents) SELECT id, $1, amount FROM unnest($2::uuid[], $3::bigint[]) AS d (id, amount)`,
    [fundingSourceId, deposits.map((deposit) => deposit.id), deposits.map((deposit) => deposit.amountCents.toString())],
  );
}

export async function microDepositsOf(db: Queryable, fundingSourceId: string): Promise<MicroDepositRow[]> {
  return db.query<MicroDepositRow>(
    'SELECT id, funding_source_id, amount_cents, status, created_at FROM micro_deposits WHERE funding_source_id = $1 ORDER BY id',
    [fundingSourceId],
  );
}

/** Micro-deposits whose ledger transfer a crash kept from being written. */
export async function microDepositsWithoutTransfer(db: Queryable, olderThanSeconds: number, limit: number): Promise<MicroDepositRow[]> {
  return db.query<MicroDepositRow>(
    `SELECT m.id, m.funding_source_id, m.amount_cents, m.status, m.created_at FROM micro_deposits m
     WHERE m.created_at < now() - make_interval(secs => $1) AND NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = m.id)
     ORDER BY m.created_at LIMIT $2`,
    [olderThanSeconds, limit],
  );
}

export async function markMicroDepositReturned(db: Queryable, id: string, returnCode: string): Promise<MicroDepositRow | undefined> {
  const [row] = await db.query<MicroDepositRow>(
    `UPDATE micro_deposits SET status = 'returned', return_code = $2 WHERE id = $1 AND status = 'sent' RETURNING id, funding_source_id, amount_cents, status, created_at`,
    [id, returnCode],
  );
  return row;
}

export async function findMicroDeposit(db: Queryable, id: string): Promise<MicroDepositRow | undefined> {
  const [row] = await db.query<MicroDepositRow>('SELECT id, funding_source_id, amount_cents, status, created_at FROM micro_deposits WHERE id = $1', [id]);
  return row;
}

/** A customer whose identity staff (or the automatic check) approved may link accounts. */
export async function isIdentityApproved(db: Queryable, customerId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM identity_reviews WHERE customer_id = $1 AND status = 'approved' LIMIT 1`, [customerId]);
  return rows.length > 0;
}

/** Locks the customer's row until the transaction ends: one customer's links are made one at a time. */
export async function lockCustomer(tx: Queryable, customerId: string): Promise<void> {
  await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
}

/** The customer's phone number once verified; null before. */
export async function verifiedPhoneOf(db: Queryable, customerId: string): Promise<string | null> {
  const [row] = await db.query<{ phone_e164: string | null }>('SELECT phone_e164 FROM customers WHERE id = $1 AND phone_verified_at IS NOT NULL', [customerId]);
  return row?.phone_e164 ?? null;
}
