import type { DataScope } from '@strongroom/contracts/connected-apps.ts';
import type { JWK } from 'jose';
import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';

/**
 * Data recipients (migration 0052; docs/connected-apps.md, "Data recipients"): the apps staff
 * registered, each an OAuth client that signs in with a key of its own (private_key_jwt). The bank
 * keeps only the app's public keys.
 */
export interface RecipientRow {
  id: string;
  client_id: string;
  name: string;
  logo_url: string | null;
  contact_email: string;
  redirect_uris: string[];
  allowed_scopes: DataScope[];
  jwks: { keys: JWK[] };
  rate_limit_per_minute: number;
  enabled: boolean;
  created_at: Date;
}

/** A recipient as the back office lists it: with the number of its consents in force now. */
export interface RecipientListRow extends RecipientRow {
  active_consents: number;
}

/** A recipient's fields as staff write them, the id and client id aside. */
export interface RecipientFields {
  name: string;
  logoUrl: string | null;
  contactEmail: string;
  redirectUris: string[];
  allowedScopes: DataScope[];
  jwks: { keys: JWK[] };
  rateLimitPerMinute: number;
}

const columns = 'id, client_id, name, logo_url, contact_email, redirect_uris, allowed_scopes, jwks, rate_limit_per_minute, enabled, created_at';

/** The recipient signing in as this OAuth client, enabled or not (the caller checks `enabled`). */
export async function findRecipientByClientId(db: Queryable, clientId: string): Promise<RecipientRow | undefined> {
  const [row] = await db.query<RecipientRow>(`SELECT ${columns} FROM data_recipients WHERE client_id = $1`, [clientId]);
  return row;
}

/** One recipient by id; undefined for an unknown (or malformed) id. */
export async function findRecipient(db: Queryable, id: string): Promise<RecipientRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<RecipientRow>(`SELECT ${columns} FROM data_recipients WHERE id = $1`, [id]);
  return row;
}

/** Locks the recipient's row until the transaction ends: changes to one app are made one at a time. */
export async function lockRecipient(tx: Queryable, id: string): Promise<RecipientRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await tx.query<RecipientRow>(`SELECT ${columns} FROM data_recipients WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/**
 * Another recipient's id with this name (compared without case), to refuse a duplicate. Holds a
 * lock on the name until the transaction ends, so two registrations of one name at once are made
 * one after the other and the second sees the first (the table has no unique index on lower(name)).
 */
export async function recipientIdNamed(tx: Queryable, name: string, exceptId: string | null): Promise<string | undefined> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('data-recipient-name:' || lower($1::text), 0))", [name]);
  const [row] = await tx.query<{ id: string }>('SELECT id FROM data_recipients WHERE lower(name) = lower($1) AND ($2::uuid IS NULL OR id <> $2) LIMIT 1', [
    name,
    exceptId,
  ]);
  return row?.id;
}

const activeConsentsColumn = `(SELECT count(*)::int FROM connected_app_consents c
   WHERE c.recipient_id = r.id AND c.revoked_at IS NULL AND c.expires_at > $1) AS active_consents`;

/** Every recipient by name (then id), with its consents in force at `now`. */
export function listRecipients(db: Queryable, now: Date): Promise<RecipientListRow[]> {
  return db.query<RecipientListRow>(
    `SELECT ${columns
      .split(', ')
      .map((column) => `r.${column}`)
      .join(', ')}, ${activeConsentsColumn}
     FROM data_recipients r ORDER BY lower(r.name), r.id`,
    [now],
  );
}

/** One recipient with its consents in force at `now`; undefined for an unknown id. */
export async function findRecipientWithConsents(db: Queryable, id: string, now: Date): Promise<RecipientListRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<RecipientListRow>(
    `SELECT ${columns
      .split(', ')
      .map((column) => `r.${column}`)
      .join(', ')}, ${activeConsentsColumn}
     FROM data_recipients r WHERE r.id = $2`,
    [now, id],
  );
  return row;
}

type NewRecipient = RecipientFields & { id: string; clientId: string; createdBy: string | null };

/** One INSERT for both writers below: `onConflict` is what a client id already there does (nothing: an error). */
async function writeRecipient(db: Queryable, recipient: NewRecipient, onConflict: string): Promise<RecipientRow> {
  const [row] = await db.query<RecipientRow>(
    `INSERT INTO data_recipients (id, client_id, name, logo_url, contact_email, redirect_uris, allowed_scopes, jwks, rate_limit_per_minute, created_by)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7::text[], $8::jsonb, $9, $10)
     ${onConflict}
     RETURNING ${columns}`,
    [
      recipient.id,
      recipient.clientId,
      recipient.name,
      recipient.logoUrl,
      recipient.contactEmail,
      recipient.redirectUris,
      recipient.allowedScopes,
      JSON.stringify(recipient.jwks),
      recipient.rateLimitPerMinute,
      recipient.createdBy,
    ],
  );
  if (!row) throw new Error('writing a data recipient returned no row');
  return row;
}

/** Inserts or, when its client_id exists, updates (the sandbox seeds its app this way on every start; `enabled` stays as staff left it). */
export function upsertRecipient(db: Queryable, recipient: NewRecipient): Promise<RecipientRow> {
  return writeRecipient(
    db,
    recipient,
    `ON CONFLICT (client_id) DO UPDATE SET name = EXCLUDED.name, logo_url = EXCLUDED.logo_url, contact_email = EXCLUDED.contact_email,
       redirect_uris = EXCLUDED.redirect_uris, allowed_scopes = EXCLUDED.allowed_scopes, jwks = EXCLUDED.jwks,
       rate_limit_per_minute = EXCLUDED.rate_limit_per_minute, updated_at = now()`,
  );
}

/** Inserts a new recipient, enabled; a client id already taken is an error (never an update of another app). */
export function insertRecipient(tx: Queryable, recipient: NewRecipient): Promise<RecipientRow> {
  return writeRecipient(tx, recipient, '');
}

/** Replaces a recipient's fields (its id, client id and status stay). */
export async function updateRecipient(tx: Queryable, id: string, fields: RecipientFields): Promise<RecipientRow | undefined> {
  const [row] = await tx.query<RecipientRow>(
    `UPDATE data_recipients SET name = $2, logo_url = $3, contact_email = $4, redirect_uris = $5::text[], allowed_scopes = $6::text[], jwks = $7::jsonb,
       rate_limit_per_minute = $8, updated_at = now()
     WHERE id = $1 RETURNING ${columns}`,
    [id, fields.name, fields.logoUrl, fields.contactEmail, fields.redirectUris, fields.allowedScopes, JSON.stringify(fields.jwks), fields.rateLimitPerMinute],
  );
  return row;
}

/** Enables or disables a recipient; undefined for an unknown id. */
export async function setRecipientEnabled(tx: Queryable, id: string, enabled: boolean): Promise<RecipientRow | undefined> {
  const [row] = await tx.query<RecipientRow>(`UPDATE data_recipients SET enabled = $2, updated_at = now() WHERE id = $1 RETURNING ${columns}`, [id, enabled]);
  return row;
}

/**
 * Narrows the app's consents in force to the scopes it is still allowed (docs/connected-apps.md,
 * "Data recipients"): a cluster staff took away stops being readable at once, not when the consent
 * ends. Answers the ids of consents left with no scope at all: the caller revokes them (the table
 * refuses an empty scope list, so they keep their scopes until revoked in the same transaction), and
 * those narrowed.
 */
export async function narrowConsentsInForce(
  tx: Queryable,
  recipientId: string,
  allowedScopes: readonly DataScope[],
  now: Date,
): Promise<{ narrowed: string[]; emptied: string[] }> {
  const narrowed = await tx.query<{ id: string }>(
    `UPDATE connected_app_consents SET scopes = ARRAY(SELECT u.s FROM unnest(scopes) WITH ORDINALITY AS u(s, n) WHERE u.s = ANY($2::text[]) ORDER BY u.n)
     WHERE recipient_id = $1 AND revoked_at IS NULL AND expires_at > $3 AND NOT (scopes <@ $2::text[]) AND scopes && $2::text[]
     RETURNING id`,
    [recipientId, [...allowedScopes], now],
  );
  const emptied = await tx.query<{ id: string }>(
    `SELECT id FROM connected_app_consents
     WHERE recipient_id = $1 AND revoked_at IS NULL AND expires_at > $3 AND NOT (scopes && $2::text[]) ORDER BY id`,
    [recipientId, [...allowedScopes], now],
  );
  return { narrowed: narrowed.map((row) => row.id).sort(), emptied: emptied.map((row) => row.id) };
}
