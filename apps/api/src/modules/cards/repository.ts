import type { AuthorizationStatus, CardNetwork, CardStatus, CardType, DeclineReason } from '@strongroom/contracts/cards.ts';
import type { Queryable } from '../../db/database.ts';
import type { KeysetPosition } from '../../platform/keyset-cursor.ts';

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

const cardColumns = `id, customer_id, type, network, name_on_card, status, linked_account_id, pan_encrypted, last4, expiry_month, expiry_year,
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

// ---- Staff queue ----

export interface StaffCardRow extends CardRow {
  first_name: string;
  last_name: string;
  email: string;
  customer_since: Date;
  identity_status: string | null;
  frozen: boolean;
  open_cards: number;
  sort_text: string;
}

export const cardQueuePageSize = 25;

/** Waiting requests oldest first; every other status newest first. One more row than a page. */
export async function listStaffCards(db: Queryable, status: CardStatus, after: KeysetPosition | undefined): Promise<{ rows: StaffCardRow[]; total: number }> {
  const waiting = status === 'pending_approval';
  const comparison = waiting ? '>' : '<';
  const direction = waiting ? 'ASC' : 'DESC';
  const parameters: unknown[] = [status, cardQueuePageSize + 1];
  let keyset = '';
  if (after) {
    parameters.push(after.at, after.id);
    keyset = `AND (k.created_at, k.id) ${comparison} ($3::timestamptz, $4::uuid)`;
  }
  const rows = await db.query<StaffCardRow>(
    `SELECT ${cardColumns.replace(/(\w+)/g, (column) => (column === 'id' ? 'k.id' : `k.${column}`))},
            c.first_name, c.last_name, c.email, c.created_at AS customer_since,
            (SELECT r.status FROM identity_reviews r WHERE r.customer_id = k.customer_id ORDER BY r.submitted_at DESC LIMIT 1) AS identity_status,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = k.customer_id AND f.unfrozen_at IS NULL) AS frozen,
            (SELECT count(*)::integer FROM cards o WHERE o.customer_id = k.customer_id AND o.status IN ('active', 'frozen')) AS open_cards,
            k.created_at::text AS sort_text
       FROM cards k JOIN customers c ON c.id = k.customer_id
      WHERE k.status = $1 ${keyset}
      ORDER BY k.created_at ${direction}, k.id ${direction}
      LIMIT $2`,
    parameters,
  );
  const [count] = await db.query<{ total: number }>('SELECT count(*)::integer AS total FROM cards WHERE status = $1', [status]);
  return { rows, total: count?.total ?? 0 };
}

export async function findStaffCard(db: Queryable, id: string): Promise<StaffCardRow | undefined> {
  const [row] = await db.query<StaffCardRow>(
    `SELECT ${cardColumns.replace(/(\w+)/g, (column) => `k.${column}`)},
            c.first_name, c.last_name, c.email, c.created_at AS customer_since,
            (SELECT r.status FROM identity_reviews r WHERE r.customer_id = k.customer_id ORDER BY r.submitted_at DESC LIMIT 1) AS identity_status,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = k.customer_id AND f.unfrozen_at IS NULL) AS frozen,
            (SELECT count(*)::integer FROM cards o WHERE o.customer_id = k.customer_id AND o.status IN ('active', 'frozen')) AS open_cards,
            k.created_at::text AS sort_text
       FROM cards k JOIN customers c ON c.id = k.customer_id WHERE k.id = $1`,
    [id],
  );
  return row;
}

// ---- Reveals ----

export async function insertReveal(db: Queryable, reveal: { cardId: string; customerId: string; device: string; ip: string | null }): Promise<void> {
  await db.query('INSERT INTO card_reveals (card_id, customer_id, device, ip) VALUES ($1, $2, $3, $4)', [
    reveal.cardId,
    reveal.customerId,
    reveal.device,
    reveal.ip,
  ]);
}

export async function listReveals(db: Queryable, cardId: string, limit: number): Promise<{ created_at: Date; device: string; ip: string | null }[]> {
  return db.query('SELECT created_at, device, ip FROM card_reveals WHERE card_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [cardId, limit]);
}

// ---- Authorisations ----

export interface AuthorizationRow {
  id: string;
  card_id: string;
  customer_id: string;
  amount_cents: bigint;
  cleared_cents: bigint | null;
  merchant_name: string;
  mcc: string;
  status: AuthorizationStatus;
  decline_reason: DeclineReason | null;
  source: string;
  releases_at: Date | null;
  resolved_at: Date | null;
  created_at: Date;
}

const authorizationColumns =
  'id, card_id, customer_id, amount_cents, cleared_cents, merchant_name, mcc, status, decline_reason, source, releases_at, resolved_at, created_at';

export async function insertAuthorization(
  db: Queryable,
  authorization: {
    id: string;
    cardId: string;
    customerId: string;
    amountCents: bigint;
    merchantName: string;
    mcc: string;
    status: 'pending' | 'declined';
    declineReason: DeclineReason | null;
    source: string;
    releasesAt: Date | null;
  },
): Promise<AuthorizationRow> {
  const [row] = await db.query<AuthorizationRow>(
    `INSERT INTO card_authorizations (id, card_id, customer_id, amount_cents, merchant_name, mcc, status, decline_reason, source, releases_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${authorizationColumns}`,
    [
      authorization.id,
      authorization.cardId,
      authorization.customerId,
      authorization.amountCents,
      authorization.merchantName,
      authorization.mcc,
      authorization.status,
      authorization.declineReason,
      authorization.source,
      authorization.releasesAt,
    ],
  );
  if (!row) throw new Error('no authorisation inserted');
  return row;
}

export async function findAuthorization(db: Queryable, id: string, options: { lock?: boolean } = {}): Promise<AuthorizationRow | undefined> {
  const [row] = await db.query<AuthorizationRow>(`SELECT ${authorizationColumns} FROM card_authorizations WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  return row;
}

export async function resolveAuthorization(
  db: Queryable,
  id: string,
  resolution: { status: 'cleared' | 'reversed' | 'expired'; clearedCents?: bigint; transferId?: string },
): Promise<void> {
  await db.query(
    `UPDATE card_authorizations SET status = $2, cleared_cents = $3, resolution_transfer_id = $4, resolved_at = now() WHERE id = $1 AND status = 'pending'`,
    [id, resolution.status, resolution.clearedCents ?? null, resolution.transferId ?? null],
  );
}

export async function listAuthorizations(db: Queryable, cardId: string, limit: number): Promise<AuthorizationRow[]> {
  return db.query<AuthorizationRow>(`SELECT ${authorizationColumns} FROM card_authorizations WHERE card_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [
    cardId,
    limit,
  ]);
}

/** Pending holds and cleared purchases of this calendar month (in the bank's time zone), per card. */
export async function spentThisMonth(db: Queryable, cardIds: readonly string[], timeZone: string): Promise<Map<string, bigint>> {
  if (cardIds.length === 0) return new Map();
  const rows = await db.query<{ card_id: string; spent: bigint }>(
    `SELECT card_id, sum(coalesce(cleared_cents, amount_cents))::bigint AS spent FROM card_authorizations
     WHERE card_id = ANY($1::uuid[]) AND status IN ('pending', 'cleared')
       AND created_at >= date_trunc('month', now() AT TIME ZONE $2) AT TIME ZONE $2
     GROUP BY card_id`,
    [cardIds, timeZone],
  );
  return new Map(rows.map((row) => [row.card_id, BigInt(row.spent)]));
}

/** Holds the ledger has expired (its sweep voided the reservation) that this table still calls pending. */
export async function expiredHolds(db: Queryable, limit: number): Promise<AuthorizationRow[]> {
  return db.query<AuthorizationRow>(
    `SELECT ${authorizationColumns.replace(/(\w+)/g, (column) => `a.${column}`)} FROM card_authorizations a
       JOIN pending_transfer_states s ON s.pending_id = a.id
      WHERE a.status = 'pending' AND s.state = 'expired'
      ORDER BY a.releases_at LIMIT $1`,
    [limit],
  );
}

// ---- Credit card payments ----

export async function findCardPaymentByKey(
  db: Queryable,
  customerId: string,
  key: string,
): Promise<{ id: string; card_id: string; request_hash: Buffer | Uint8Array | null } | undefined> {
  const [row] = await db.query<{ id: string; card_id: string; request_hash: Buffer | Uint8Array | null }>(
    'SELECT id, card_id, request_hash FROM card_payments WHERE customer_id = $1 AND idempotency_key = $2',
    [customerId, key],
  );
  return row;
}

export async function insertCardPayment(
  db: Queryable,
  payment: {
    id: string;
    cardId: string;
    customerId: string;
    fromAccountId: string | null;
    amountCents: bigint;
    source: 'payment' | 'push';
    idempotencyKey: string | null;
    requestHash: Buffer | null;
  },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO card_payments (id, card_id, customer_id, from_account_id, amount_cents, source, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
    [payment.id, payment.cardId, payment.customerId, payment.fromAccountId, payment.amountCents, payment.source, payment.idempotencyKey, payment.requestHash],
  );
  return rows.length === 1;
}

export async function declineAuthorization(db: Queryable, id: string, reason: DeclineReason): Promise<void> {
  await db.query(
    `UPDATE card_authorizations SET status = 'declined', decline_reason = $2, releases_at = NULL, resolved_at = now() WHERE id = $1 AND status = 'pending'`,
    [id, reason],
  );
}

/**
 * Authorisations recorded pending whose hold never reached the ledger (the process stopped between
 * the two): after `minutes` nothing will create it any more.
 */
export async function orphanAuthorizations(db: Queryable, minutes: number, limit: number): Promise<{ id: string }[]> {
  return db.query<{ id: string }>(
    `SELECT a.id FROM card_authorizations a
      WHERE a.status = 'pending' AND a.created_at < now() - make_interval(mins => $1)
        AND NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = a.id)
      ORDER BY a.created_at LIMIT $2`,
    [minutes, limit],
  );
}
