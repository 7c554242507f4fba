import type { CardNetwork, CardStatus, CardType } from '@strongroom/contracts/cards.ts';
import type { Queryable } from '../../db/database.ts';

/** The cards module's SQL (migration 0016). */
export interface CardRow {
  id: string;
  customer_id: string;
  type: CardType;
  network: CardNetwork;
  name_on_card: string;
  status: CardStatus;
  linked_account_id: string;
  pan_encrypted: Buffer | Uint8Array | null;
  last4: string | null;
  expiry_month: number | null;
  expiry_year: number | null;
  ledger_account_id: string | null;
  credit_limit_cents: bigint | null;
  per_transaction_limit_cents: bigint;
  monthly_limit_cents: bigint;
  decision_reason: string | null;
  decided_at: Date | null;
  decided_by: string | null;
  idempotency_key: string;
  request_hash: Buffer | Uint8Array;
  created_at: Date;
}

export const cardColumns = `id, customer_id, type, network, name_on_card, status, linked_account_id, pan_encrypted, last4, expiry_month, expiry_year,
  ledger_account_id, credit_limit_cents, per_transaction_limit_cents, monthly_limit_cents, decision_reason, decided_at, decided_by,
  idempotency_key, request_hash, created_at`;

export interface NewCard {
  id: string;
  customerId: string;
  type: CardType;
  network: CardNetwork;
  nameOnCard: string;
  linkedAccountId: string;
  perTransactionLimitCents: bigint;
  monthlyLimitCents: bigint;
  idempotencyKey: string;
  requestHash: Buffer;
}

/** Undefined when the key was used already (a replay) or another request waits (the unique index). */
export async function insertCard(db: Queryable, card: NewCard): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(
    `INSERT INTO cards (id, customer_id, type, network, name_on_card, status, linked_account_id, per_transaction_limit_cents, monthly_limit_cents, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, 'pending_approval', $6, $7, $8, $9, $10)
     ON CONFLICT DO NOTHING RETURNING ${cardColumns}`,
    [
      card.id,
      card.customerId,
      card.type,
      card.network,
      card.nameOnCard,
      card.linkedAccountId,
      card.perTransactionLimitCents,
      card.monthlyLimitCents,
      card.idempotencyKey,
      card.requestHash,
    ],
  );
  return row;
}

export async function findCardByKey(db: Queryable, customerId: string, key: string): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(`SELECT ${cardColumns} FROM cards WHERE customer_id = $1 AND idempotency_key = $2`, [customerId, key]);
  return row;
}

export async function findCard(db: Queryable, id: string, options: { lock?: boolean } = {}): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(`SELECT ${cardColumns} FROM cards WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** The credit card whose line of credit is this ledger account; `lock` takes its row lock for the transaction. */
export async function findCreditCardByLedgerAccount(db: Queryable, ledgerAccountId: string, options: { lock?: boolean } = {}): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(
    `SELECT ${cardColumns} FROM cards WHERE ledger_account_id = $1 AND type = 'credit'${options.lock ? ' FOR UPDATE' : ''}`,
    [ledgerAccountId],
  );
  return row;
}

export async function findCardByLookup(db: Queryable, lookup: Buffer): Promise<CardRow | undefined> {
  const [row] = await db.query<CardRow>(`SELECT ${cardColumns} FROM cards WHERE pan_lookup = $1`, [lookup]);
  return row;
}

export async function listCardsOfCustomer(db: Queryable, customerId: string): Promise<CardRow[]> {
  return db.query<CardRow>(`SELECT ${cardColumns} FROM cards WHERE customer_id = $1 ORDER BY created_at, id`, [customerId]);
}

export async function hasPendingCard(db: Queryable, customerId: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM cards WHERE customer_id = $1 AND status = 'pending_approval'`, [customerId]);
  return rows.length > 0;
}

/** Cards that count on the dashboard: neither rejected nor closed. */
export async function countOpenCards(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM cards WHERE customer_id = $1 AND status NOT IN ('rejected', 'closed')`,
    [customerId],
  );
  return row?.count ?? 0;
}

export async function setCardStatus(db: Queryable, id: string, status: CardStatus): Promise<void> {
  await db.query(`UPDATE cards SET status = $2, updated_at = now(), closed_at = CASE WHEN $2 = 'closed' THEN now() ELSE closed_at END WHERE id = $1`, [
    id,
    status,
  ]);
}

export async function setCardLimits(db: Queryable, id: string, perTransactionCents: bigint, monthlyCents: bigint): Promise<void> {
  await db.query('UPDATE cards SET per_transaction_limit_cents = $2, monthly_limit_cents = $3, updated_at = now() WHERE id = $1', [
    id,
    perTransactionCents,
    monthlyCents,
  ]);
}

export async function markApproved(
  db: Queryable,
  approval: {
    id: string;
    panEncrypted: Buffer;
    panLookup: Buffer;
    last4: string;
    expiryMonth: number;
    expiryYear: number;
    ledgerAccountId: string | null;
    creditLimitCents: bigint | null;
    reason: string;
    decidedBy: string;
  },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE cards SET status = 'active', pan_encrypted = $2, pan_lookup = $3, last4 = $4, expiry_month = $5, expiry_year = $6,
            ledger_account_id = $7, credit_limit_cents = $8, decision_reason = $9, decided_by = $10, decided_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'pending_approval' RETURNING id`,
    [
      approval.id,
      approval.panEncrypted,
      approval.panLookup,
      approval.last4,
      approval.expiryMonth,
      approval.expiryYear,
      approval.ledgerAccountId,
      approval.creditLimitCents,
      approval.reason,
      approval.decidedBy,
    ],
  );
  return rows.length === 1;
}

export async function markRejected(db: Queryable, id: string, reason: string, decidedBy: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE cards SET status = 'rejected', decision_reason = $2, decided_by = $3, decided_at = now(), updated_at = now()
     WHERE id = $1 AND status = 'pending_approval' RETURNING id`,
    [id, reason, decidedBy],
  );
  return rows.length === 1;
}

/** The customer's checking and savings accounts (open ones), with their ledger accounts. */
export interface LinkableAccount {
  id: string;
  type: 'checking' | 'savings';
  ledger_account_id: string;
}

export async function accountsOfCustomer(db: Queryable, customerId: string): Promise<LinkableAccount[]> {
  return db.query<LinkableAccount>(
    `SELECT id, type, ledger_account_id FROM customer_accounts
     WHERE customer_id = $1 AND status = 'active' AND ledger_account_id IS NOT NULL ORDER BY opened_at, type`,
    [customerId],
  );
}

export async function accountById(
  db: Queryable,
  id: string,
): Promise<(LinkableAccount & { customer_id: string; owed_ledger_account_id: string | null }) | undefined> {
  const [row] = await db.query<LinkableAccount & { customer_id: string; owed_ledger_account_id: string | null }>(
    `SELECT id, type, ledger_account_id, customer_id, owed_ledger_account_id FROM customer_accounts
      WHERE id = $1 AND status <> 'closed' AND ledger_account_id IS NOT NULL`,
    [id],
  );
  return row;
}
