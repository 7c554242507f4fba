import type { AuthorizationStatus, DeclineReason } from '@strongroom/contracts/cards.ts';
import type { Queryable } from '../../db/database.ts';

/** The card network's authorisations (SQL only). */
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
