import type { Queryable } from '../../db/database.ts';
import type { IdType } from '@strongroom/contracts/onboarding.ts';
import type { IdentityReviewStatus } from '@strongroom/contracts/staff-identity.ts';
import { keysetWalk, type KeysetPosition } from '../../platform/keyset-cursor.ts';

/** The identity queue's SQL (issue 12): the staff side of identity_reviews. */
export interface IdentityReviewRow {
  id: string;
  customer_id: string;
  first_name: string;
  last_name: string;
  email: string;
  country: string;
  state: string;
  address: string;
  city: string | null;
  zip_code: string | null;
  /** 'YYYY-MM-DD', read as text: a date has no time zone to shift it. */
  date_of_birth: string | null;
  id_type: IdType | null;
  id_number_last4: string;
  status: IdentityReviewStatus;
  reason: string | null;
  submitted_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  document_file_id: string | null;
  profile_photo_file_id: string | null;
  /** The sort column as PostgreSQL prints it, for the next cursor. */
  sort_text: string;
}

export const identityQueuePageSize = 25;

const columns = `r.id, r.customer_id, c.first_name, c.last_name, c.email, r.country, r.state, r.address, r.city, r.zip_code,
  to_char(r.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, r.id_type, r.id_number_last4,
  r.status, r.reason, r.submitted_at, r.decided_at, r.decided_by, r.document_file_id, c.profile_photo_file_id`;

/**
 * Waiting reviews oldest first (the longest wait at the top); decided ones newest decision first.
 * One row more than a page is read, to know whether another page follows.
 */
export async function listIdentityReviews(
  db: Queryable,
  status: IdentityReviewStatus,
  after: KeysetPosition | undefined,
): Promise<{ rows: IdentityReviewRow[]; total: number }> {
  const waiting = status === 'submitted';
  const sortColumn = waiting ? 'r.submitted_at' : 'r.decided_at';
  const parameters: unknown[] = [status, identityQueuePageSize + 1];
  const { keyset, orderBy } = keysetWalk({ at: sortColumn, id: 'r.id' }, waiting ? 'ASC' : 'DESC', after, parameters);
  const rows = await db.query<IdentityReviewRow>(
    `SELECT ${columns}, ${sortColumn}::text AS sort_text
       FROM identity_reviews r JOIN customers c ON c.id = r.customer_id
      WHERE r.status = $1 ${keyset}
      ORDER BY ${orderBy}
      LIMIT $2`,
    parameters,
  );
  const [count] = await db.query<{ total: number }>('SELECT count(*)::integer AS total FROM identity_reviews WHERE status = $1', [status]);
  return { rows, total: count?.total ?? 0 };
}

export async function findIdentityReview(db: Queryable, reviewId: string): Promise<IdentityReviewRow | undefined> {
  const [row] = await db.query<IdentityReviewRow>(
    `SELECT ${columns}, r.submitted_at::text AS sort_text
       FROM identity_reviews r JOIN customers c ON c.id = r.customer_id WHERE r.id = $1`,
    [reviewId],
  );
  return row;
}

export async function findIdNumberEncrypted(db: Queryable, reviewId: string): Promise<Buffer | undefined> {
  const [row] = await db.query<{ id_number_encrypted: Buffer }>('SELECT id_number_encrypted FROM identity_reviews WHERE id = $1', [reviewId]);
  return row ? Buffer.from(row.id_number_encrypted) : undefined;
}

export async function findStoredFile(db: Queryable, fileId: string): Promise<{ content_type: string; storage_key: string } | undefined> {
  const [row] = await db.query<{ content_type: string; storage_key: string }>('SELECT content_type, storage_key FROM stored_files WHERE id = $1', [fileId]);
  return row;
}

/** The customer's newest review, for their own page: its status and, when rejected, why. */
export async function latestOwnIdentityReview(db: Queryable, customerId: string): Promise<{ status: IdentityReviewStatus; reason: string | null } | undefined> {
  const [row] = await db.query<{ status: IdentityReviewStatus; reason: string | null }>(
    'SELECT status, reason FROM identity_reviews WHERE customer_id = $1 ORDER BY submitted_at DESC, id DESC LIMIT 1',
    [customerId],
  );
  return row;
}
