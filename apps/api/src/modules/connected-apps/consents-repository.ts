import type { DataScope } from '@strongroom/contracts/connected-apps.ts';
import type { Queryable } from '../../db/database.ts';

/**
 * Consents (migration 0052; docs/connected-apps.md, "Consent"): a customer's yes to one app, for
 * some data clusters (scopes) and accounts, until a date. A consent is in force while it is neither
 * revoked nor expired; the resource API reads it on every request, so a revocation is seen by every
 * process on the very next one.
 */
export interface ConsentRow {
  id: string;
  customer_id: string;
  recipient_id: string;
  grant_id: string | null;
  scopes: DataScope[];
  account_ids: string[];
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A consent with its app and accounts, as Settings lists it. */
export interface ConsentListRow extends ConsentRow {
  recipient_name: string;
  recipient_logo_url: string | null;
  accounts: { id: string; name: string; type: string; number: string }[];
}

export interface NewConsent {
  id: string;
  customerId: string;
  recipientId: string;
  scopes: readonly DataScope[];
  accountIds: readonly string[];
  expiresAt: Date;
}

const consentColumns = `c.id, c.customer_id, c.recipient_id, c.grant_id, c.scopes, c.created_at, c.expires_at, c.revoked_at, c.last_used_at,
  ARRAY(SELECT a.account_id::text FROM connected_app_consent_accounts a WHERE a.consent_id = c.id ORDER BY a.account_id) AS account_ids`;

/**
 * Records a consent and its accounts. Only open accounts of this customer are kept: an id of
 * another customer's account, or of a closed one, is dropped, and `undefined` answers when none is left.
 */
export async function insertConsent(tx: Queryable, consent: NewConsent): Promise<ConsentRow | undefined> {
  const owned = await tx.query<{ id: string }>(
    `SELECT id FROM customer_accounts WHERE customer_id = $1 AND status <> 'closed' AND id = ANY($2::uuid[]) ORDER BY id`,
    [consent.customerId, [...consent.accountIds]],
  );
  if (owned.length === 0 || owned.length !== new Set(consent.accountIds).size) return undefined;
  await tx.query(`INSERT INTO connected_app_consents (id, customer_id, recipient_id, scopes, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
    consent.id,
    consent.customerId,
    consent.recipientId,
    [...consent.scopes],
    consent.expiresAt,
  ]);
  await tx.query(`INSERT INTO connected_app_consent_accounts (consent_id, account_id) SELECT $1, unnest($2::uuid[])`, [consent.id, owned.map((row) => row.id)]);
  return findConsent(tx, consent.id);
}

/** Ties the consent to the authorization server's grant, once. */
export async function attachGrant(tx: Queryable, consentId: string, grantId: string): Promise<void> {
  await tx.query('UPDATE connected_app_consents SET grant_id = $2 WHERE id = $1 AND grant_id IS NULL', [consentId, grantId]);
}

export async function findConsent(db: Queryable, consentId: string): Promise<ConsentRow | undefined> {
  const [row] = await db.query<ConsentRow>(`SELECT ${consentColumns} FROM connected_app_consents c WHERE c.id = $1`, [consentId]);
  return row;
}

/** The consent in force behind a grant at `now`: undefined when there is none, or it was revoked or has expired. */
export async function findConsentInForceByGrant(db: Queryable, grantId: string, now: Date): Promise<ConsentRow | undefined> {
  const [row] = await db.query<ConsentRow>(
    `SELECT ${consentColumns} FROM connected_app_consents c WHERE c.grant_id = $1 AND c.revoked_at IS NULL AND c.expires_at > $2`,
    [grantId, now],
  );
  return row;
}

/** The customer's consents in force at `now`, newest first, with their app and accounts. */
export function listConsentsInForce(db: Queryable, customerId: string, now: Date): Promise<ConsentListRow[]> {
  return db.query<ConsentListRow>(
    `SELECT ${consentColumns}, r.name AS recipient_name, r.logo_url AS recipient_logo_url,
       COALESCE((SELECT json_agg(json_build_object('id', ca.id, 'name', ca.name, 'type', ca.type, 'number', ca.number) ORDER BY ca.opened_at)
         FROM connected_app_consent_accounts a JOIN customer_accounts ca ON ca.id = a.account_id WHERE a.consent_id = c.id), '[]'::json) AS accounts
     FROM connected_app_consents c JOIN data_recipients r ON r.id = c.recipient_id
     WHERE c.customer_id = $1 AND c.revoked_at IS NULL AND c.expires_at > $2 AND c.grant_id IS NOT NULL
     ORDER BY c.created_at DESC, c.id`,
    [customerId, now],
  );
}

/**
 * Ends a consent in force (of this customer when `customerId` is given) and deletes every token,
 * code and grant the authorization server keeps for it, in the same transaction. Undefined when
 * there was nothing in force to end: another customer's consent looks like a missing one.
 */
export async function revokeConsent(
  tx: Queryable,
  revocation: { consentId: string; customerId?: string; by: 'customer' | 'staff' | 'recipient_disabled'; now: Date },
): Promise<ConsentRow | undefined> {
  const [row] = await tx.query<{ id: string; grant_id: string | null }>(
    `UPDATE connected_app_consents SET revoked_at = $3, revoked_by = $4
     WHERE id = $1 AND ($2::uuid IS NULL OR customer_id = $2) AND revoked_at IS NULL AND expires_at > $3
     RETURNING id, grant_id`,
    [revocation.consentId, revocation.customerId ?? null, revocation.now, revocation.by],
  );
  if (!row) return undefined;
  if (row.grant_id) await tx.query('DELETE FROM oauth_store WHERE grant_id = $1 OR (model = $2 AND id = $1)', [row.grant_id, 'Grant']);
  return findConsent(tx, row.id);
}

/** The consents of one app still in force: a disabled app's are all ended (revokeConsent each). */
export async function consentIdsInForceOf(db: Queryable, recipientId: string, now: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM connected_app_consents WHERE recipient_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY id',
    [recipientId, now],
  );
  return rows.map((row) => row.id);
}

/**
 * Marks the consent used. At most one write a minute per consent: "last used" is for the customer
 * to read in Settings, and a busy app should not turn every read into a write.
 */
export async function touchConsent(db: Queryable, consentId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE connected_app_consents SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
    [consentId, now],
  );
}

/**
 * The authorization server ended a grant (the app revoked its refresh token, or a code was
 * replayed): the consent behind it ends too, so Settings no longer lists an access the app gave up.
 */
export async function endConsentOfGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(`UPDATE connected_app_consents SET revoked_at = now(), revoked_by = 'app' WHERE grant_id = $1 AND revoked_at IS NULL`, [grantId]);
}
