import type { PostalAddress } from '@strongroom/contracts/contact-details.ts';
import type { Queryable } from '../../db/database.ts';
import { normalizeEmail } from '../customers/service.ts';

/** SQL of the contact details (migration 0035): pending email and phone changes, and the postal address. */

interface AddressRow {
  country: string;
  address: string;
  city: string | null;
  state: string;
  zip_code: string | null;
}

/**
 * The customer's postal address: the one they or staff last saved, else the one of their latest
 * identity review (reviews sent before decision 055 have no city or ZIP code: no address then).
 */
export async function currentAddress(db: Queryable, customerId: string): Promise<PostalAddress | null> {
  const [row] = await db.query<AddressRow>(
    `SELECT country, address, city, state, zip_code, 0 AS preference FROM customer_addresses WHERE customer_id = $1
     UNION ALL
     (SELECT country, address, city, state, zip_code, 1 FROM identity_reviews WHERE customer_id = $1 ORDER BY submitted_at DESC LIMIT 1)
     ORDER BY preference LIMIT 1`,
    [customerId],
  );
  if (!row?.city || !row.zip_code) return null;
  return { country: row.country, address: row.address, city: row.city, state: row.state, zipCode: row.zip_code };
}

export async function saveAddress(db: Queryable, customerId: string, address: PostalAddress): Promise<void> {
  await db.query(
    `INSERT INTO customer_addresses (customer_id, country, address, city, state, zip_code) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (customer_id) DO UPDATE
       SET country = excluded.country, address = excluded.address, city = excluded.city, state = excluded.state,
           zip_code = excluded.zip_code, updated_at = now()`,
    [customerId, address.country, address.address, address.city, address.state, address.zipCode],
  );
}

/**
 * Whether another customer uses this email. Locks the address until the transaction ends first, so
 * two customers moving to it at once cannot both find it free.
 */
export async function isEmailUsedByAnother(db: Queryable, customerId: string, email: string): Promise<boolean> {
  const normalized = normalizeEmail(email);
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('customer-email:' || $1::text, 0))", [normalized]);
  const [row] = await db.query<{ taken: boolean }>('SELECT EXISTS (SELECT 1 FROM customers WHERE email_normalized = $1 AND id <> $2) AS taken', [
    normalized,
    customerId,
  ]);
  return row?.taken === true;
}

export async function setEmail(db: Queryable, customerId: string, email: string): Promise<void> {
  await db.query('UPDATE customers SET email = $2, email_normalized = $3, email_verified_at = now() WHERE id = $1', [
    customerId,
    email.trim(),
    normalizeEmail(email),
  ]);
}

/** Links and codes waiting for the customer end when another is asked for or staff correct the detail. */
export async function supersedeEmailChanges(db: Queryable, customerId: string): Promise<void> {
  await db.query('UPDATE email_changes SET superseded_at = now() WHERE customer_id = $1 AND used_at IS NULL AND superseded_at IS NULL', [customerId]);
}

export async function supersedePhoneChanges(db: Queryable, customerId: string): Promise<void> {
  await db.query('UPDATE phone_changes SET superseded_at = now() WHERE customer_id = $1 AND used_at IS NULL AND superseded_at IS NULL', [customerId]);
}

export async function insertEmailChange(db: Queryable, change: { tokenHash: Buffer; customerId: string; newEmail: string; validForMs: number }): Promise<Date> {
  await supersedeEmailChanges(db, change.customerId);
  const [row] = await db.query<{ expires_at: Date }>(
    `INSERT INTO email_changes (token_hash, customer_id, new_email, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000)) RETURNING expires_at`,
    [change.tokenHash, change.customerId, change.newEmail, change.validForMs],
  );
  if (!row) throw new Error('an email change was not stored');
  return row.expires_at;
}

export interface EmailChangeRow {
  new_email: string;
  live: boolean;
}

/** The customer's change with this token, locked; another customer's answers like a missing one. */
export async function lockEmailChange(db: Queryable, customerId: string, tokenHash: Buffer): Promise<EmailChangeRow | undefined> {
  const [row] = await db.query<EmailChangeRow>(
    `SELECT new_email, (used_at IS NULL AND superseded_at IS NULL AND expires_at > now()) AS live
       FROM email_changes WHERE token_hash = $1 AND customer_id = $2 FOR UPDATE`,
    [tokenHash, customerId],
  );
  return row;
}

export async function markEmailChangeUsed(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('UPDATE email_changes SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

export async function pendingEmailChange(db: Queryable, customerId: string): Promise<{ new_email: string; expires_at: Date } | undefined> {
  const [row] = await db.query<{ new_email: string; expires_at: Date }>(
    `SELECT new_email, expires_at FROM email_changes
      WHERE customer_id = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC LIMIT 1`,
    [customerId],
  );
  return row;
}

export interface PhoneChangeRow {
  id: string;
  phone_e164: string;
  phone_country: string;
  code_hash: Buffer | Uint8Array;
  attempts: number;
  expires_at: Date;
  live: boolean;
}

export async function insertPhoneChange(
  db: Queryable,
  change: { customerId: string; phoneE164: string; country: string; codeHash: Buffer; validForMs: number },
): Promise<Date> {
  await supersedePhoneChanges(db, change.customerId);
  const [row] = await db.query<{ expires_at: Date }>(
    `INSERT INTO phone_changes (customer_id, phone_e164, phone_country, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000)) RETURNING expires_at`,
    [change.customerId, change.phoneE164, change.country, change.codeHash, change.validForMs],
  );
  if (!row) throw new Error('a phone change was not stored');
  return row.expires_at;
}

/** The customer's newest phone change not replaced by another, locked for the attempt. */
export async function lockLatestPhoneChange(db: Queryable, customerId: string, maxAttempts: number): Promise<PhoneChangeRow | undefined> {
  const [row] = await db.query<PhoneChangeRow>(
    `SELECT id, phone_e164, phone_country, code_hash, attempts, expires_at,
            (used_at IS NULL AND expires_at > now() AND attempts < $2) AS live
       FROM phone_changes WHERE customer_id = $1 AND superseded_at IS NULL
      ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [customerId, maxAttempts],
  );
  return row;
}

export async function countPhoneChangeAttempt(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE phone_changes SET attempts = attempts + 1 WHERE id = $1', [id]);
}

export async function markPhoneChangeUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE phone_changes SET used_at = now() WHERE id = $1', [id]);
}

export async function pendingPhoneChange(
  db: Queryable,
  customerId: string,
  maxAttempts: number,
): Promise<{ phone_e164: string; expires_at: Date } | undefined> {
  const [row] = await db.query<{ phone_e164: string; expires_at: Date }>(
    `SELECT phone_e164, expires_at FROM phone_changes
      WHERE customer_id = $1 AND used_at IS NULL AND superseded_at IS NULL AND expires_at > now() AND attempts < $2
      ORDER BY created_at DESC LIMIT 1`,
    [customerId, maxAttempts],
  );
  return row;
}
