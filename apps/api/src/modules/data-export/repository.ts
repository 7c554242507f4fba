import type { Queryable } from '../../db/database.ts';
import type { CustomerContactRow } from '../customers/service.ts';

export const dataExportAction = 'customer.data_export';

export interface ProfileRow extends CustomerContactRow {
  profile_photo_file_id: string | null;
  created_at: Date;
  identity_status: 'submitted' | 'approved' | 'rejected' | null;
  identity_country: string | null;
  identity_state: string | null;
  identity_address: string | null;
  /** Only the last characters are ever read: the full number stays encrypted and never leaves. */
  identity_id_number_last4: string | null;
  identity_reason: string | null;
  identity_submitted_at: Date | null;
  identity_decided_at: Date | null;
}

/** What profile.json holds: never the password hash, never the encrypted identity number. */
export async function findProfile(db: Queryable, customerId: string): Promise<ProfileRow | undefined> {
  const [row] = await db.query<ProfileRow>(
    `SELECT c.id, c.first_name, c.last_name, c.email, c.email_verified_at, c.phone_e164, c.phone_verified_at,
            c.profile_photo_file_id, c.created_at,
            r.status AS identity_status, r.country AS identity_country, r.state AS identity_state, r.address AS identity_address,
            r.id_number_last4 AS identity_id_number_last4, r.reason AS identity_reason,
            r.submitted_at AS identity_submitted_at, r.decided_at AS identity_decided_at
       FROM customers c
       LEFT JOIN LATERAL (
         SELECT status, country, state, address, id_number_last4, reason, submitted_at, decided_at
           FROM identity_reviews WHERE customer_id = c.id ORDER BY submitted_at DESC LIMIT 1
       ) r ON true
      WHERE c.id = $1`,
    [customerId],
  );
  return row;
}

/**
 * The customer's exports in the last `windowSeconds`, counted from the audit log under a lock on
 * the customer's row: two requests at once count each other, and every API process sees the same
 * count (docs/product.md section 6, "Operations"). Answers the count and when the oldest of them was.
 */
export async function recentExports(db: Queryable, customerId: string, windowSeconds: number): Promise<{ count: number; oldest: Date | null }> {
  await db.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
  const [row] = await db.query<{ count: number; oldest: Date | null }>(
    `SELECT count(*)::int AS count, min(occurred_at) AS oldest FROM audit_log
      WHERE actor_type = 'customer' AND actor_id = $1 AND action = $2 AND outcome = 'success'
        AND occurred_at > now() - make_interval(secs => $3)`,
    [customerId, dataExportAction, windowSeconds],
  );
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}

/** Seconds until `oldest` leaves the window, by the database's clock; at least 1. */
export async function secondsUntilOutOfWindow(db: Queryable, oldest: Date, windowSeconds: number): Promise<number> {
  const [row] = await db.query<{ seconds: number }>(
    `SELECT greatest(1, ceil(extract(epoch FROM $1::timestamptz + make_interval(secs => $2) - now())))::int AS seconds`,
    [oldest, windowSeconds],
  );
  return row?.seconds ?? 1;
}
