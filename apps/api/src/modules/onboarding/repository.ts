import type { IdType } from '@strongroom/contracts/onboarding.ts';
import type { Queryable } from '../../db/database.ts';

export interface PhoneCodeRow {
  id: string;
  phone_e164: string;
  phone_country: string;
  code_hash: Buffer;
  attempts: number;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export async function insertPhoneCode(
  db: Queryable,
  input: { customerId: string; phoneE164: string; country: string; codeHash: Buffer; validForMs: number },
): Promise<void> {
  await db.query('UPDATE phone_codes SET superseded_at = now() WHERE customer_id = $1 AND used_at IS NULL AND superseded_at IS NULL', [input.customerId]);
  await db.query(
    `INSERT INTO phone_codes (customer_id, phone_e164, phone_country, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))`,
    [input.customerId, input.phoneE164, input.country, input.codeHash, input.validForMs],
  );
}

/** The customer's newest code that was not replaced by a newer one, locked for the attempt. */
export async function latestPhoneCode(db: Queryable, customerId: string): Promise<PhoneCodeRow | undefined> {
  const [row] = await db.query<PhoneCodeRow>(
    `SELECT id, phone_e164, phone_country, code_hash, attempts, expires_at, used_at, created_at
       FROM phone_codes WHERE customer_id = $1 AND superseded_at IS NULL
      ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [customerId],
  );
  return row;
}

export async function countPhoneCodeAttempt(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE phone_codes SET attempts = attempts + 1 WHERE id = $1', [id]);
}

export async function markPhoneCodeUsed(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE phone_codes SET used_at = now() WHERE id = $1', [id]);
}

/**
 * Whether another customer has verified this phone number (decision 055). Locks the number until
 * the transaction ends first, so that two customers verifying it at once cannot both find it free.
 */
export async function isPhoneVerifiedByAnother(db: Queryable, customerId: string, phoneE164: string): Promise<boolean> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('verified-phone:' || $1::text, 0))", [phoneE164]);
  const [row] = await db.query<{ taken: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM customers WHERE phone_e164 = $1 AND phone_verified_at IS NOT NULL AND id <> $2) AS taken',
    [phoneE164, customerId],
  );
  return row?.taken === true;
}

export async function insertStoredFile(
  db: Queryable,
  file: { id: string; ownerCustomerId: string; purpose: 'identity_document' | 'profile_photo'; contentType: string; byteSize: number; storageKey: string },
): Promise<void> {
  await db.query(`INSERT INTO stored_files (id, owner_customer_id, purpose, content_type, byte_size, storage_key) VALUES ($1, $2, $3, $4, $5, $6)`, [
    file.id,
    file.ownerCustomerId,
    file.purpose,
    file.contentType,
    file.byteSize,
    file.storageKey,
  ]);
}

export interface StoredFileRow {
  id: string;
  owner_customer_id: string;
  content_type: string;
  storage_key: string;
}

/** A file only its owner may see: someone else's answers exactly like a missing one. */
export async function findOwnedFile(db: Queryable, fileId: string, ownerCustomerId: string): Promise<StoredFileRow | undefined> {
  const [row] = await db.query<StoredFileRow>(
    'SELECT id, owner_customer_id, content_type, storage_key FROM stored_files WHERE id = $1 AND owner_customer_id = $2',
    [fileId, ownerCustomerId],
  );
  return row;
}

export async function insertIdentityReview(
  db: Queryable,
  review: {
    customerId: string;
    documentFileId: string | null;
    idNumberEncrypted: Buffer;
    /** service.ts idNumberHash; left out only where no real number was given (tests of other things). */
    idNumberHash?: Buffer;
    idNumberLast4: string;
    country: string;
    state: string;
    address: string;
    /** Decision 055's fields, all or none; left out only by tests of other things, as reviews before it had none. */
    identification?: { idType: IdType; dateOfBirth: string; city: string; zipCode: string };
  },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO identity_reviews (customer_id, document_file_id, id_number_encrypted, id_number_hash, id_number_last4, country, state, address,
                                   id_type, date_of_birth, city, zip_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::date, $11, $12) RETURNING id`,
    [
      review.customerId,
      review.documentFileId,
      review.idNumberEncrypted,
      review.idNumberHash ?? null,
      review.idNumberLast4,
      review.country,
      review.state,
      review.address,
      review.identification?.idType ?? null,
      review.identification?.dateOfBirth ?? null,
      review.identification?.city ?? null,
      review.identification?.zipCode ?? null,
    ],
  );
  if (!row) throw new Error('INSERT ... RETURNING gave no row');
  return row.id;
}

/** Decides a review still open; answers its customer, or undefined when it was already decided. */
export async function decideIdentityReview(
  db: Queryable,
  input: { reviewId: string; status: 'approved' | 'rejected'; reason: string | null; decidedBy: string },
): Promise<string | undefined> {
  const [row] = await db.query<{ customer_id: string }>(
    `UPDATE identity_reviews SET status = $2, reason = $3, decided_at = now(), decided_by = $4
      WHERE id = $1 AND status = 'submitted' RETURNING customer_id`,
    [input.reviewId, input.status, input.reason, input.decidedBy],
  );
  return row?.customer_id;
}
