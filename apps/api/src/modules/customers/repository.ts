import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';

export interface CustomerRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  phone_e164: string | null;
  phone_country: string | null;
  phone_verified_at: Date | null;
  profile_photo_file_id: string | null;
  identity_status: 'not_submitted' | 'submitted' | 'approved' | 'rejected';
  identity_country: string | null;
}

/** The customer with the state of their latest identity review, in one read. */
const selectCustomer = `
  SELECT c.id, c.first_name, c.last_name, c.email, c.password_hash, c.email_verified_at,
         c.phone_e164, c.phone_country, c.phone_verified_at, c.profile_photo_file_id,
         coalesce(r.status, 'not_submitted') AS identity_status, r.country AS identity_country
    FROM customers c
    LEFT JOIN LATERAL (
      SELECT status, country FROM identity_reviews WHERE customer_id = c.id ORDER BY submitted_at DESC LIMIT 1
    ) r ON true`;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The customers asked for at the same moment are read in one statement (db/batched-lookup.ts, decision 044). */
export function findCustomerById(db: Queryable, id: string): Promise<CustomerRow | undefined> {
  // A malformed id is no customer, and never joins (and fails) a statement shared with others.
  return wellFormed(id) ? findCustomerBatched(db, id.toLowerCase()) : Promise.resolve(undefined);
}

/**
 * The ids come through a subquery PostgreSQL does not flatten, so it counts them as a generic plan
 * does and keeps the prepared statement's generic plan, not planning each batch afresh; each
 * customer is an index probe (a LATERAL), which that plan cannot turn into a read of the whole
 * table (issue 37, decision 081).
 */
async function readCustomers(db: Queryable, ids: readonly string[]): Promise<(CustomerRow | undefined)[]> {
  const rows = await db.query<CustomerRow & { position: string }>(
    `SELECT w.position::text AS position, c.id, c.first_name, c.last_name, c.email, c.password_hash, c.email_verified_at,
            c.phone_e164, c.phone_country, c.phone_verified_at, c.profile_photo_file_id,
            coalesce(r.status, 'not_submitted') AS identity_status, r.country AS identity_country
       FROM (SELECT $1::uuid[] AS ids OFFSET 0) AS batch
       CROSS JOIN LATERAL unnest(batch.ids) WITH ORDINALITY AS w (id, position)
       CROSS JOIN LATERAL (SELECT * FROM customers c WHERE c.id = w.id LIMIT 1) c
       LEFT JOIN LATERAL (
         SELECT status, country FROM identity_reviews WHERE customer_id = c.id ORDER BY submitted_at DESC LIMIT 1
       ) r ON true`,
    [ids],
    { name: 'customers_by_ids' },
  );
  const byPosition = new Map(rows.map(({ position, ...customer }) => [Number(position), customer]));
  return ids.map((_, index) => byPosition.get(index + 1));
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const findCustomerBatched = batchedPerDatabase<string, CustomerRow | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (ids) => readCustomers(db, ids) }),
  async (db, id) => (await readCustomers(db, [id]))[0],
);

function wellFormed(id: string): boolean {
  return uuidPattern.test(id);
}

export async function findCustomerByEmail(db: Queryable, email: string): Promise<CustomerRow | undefined> {
  const [row] = await db.query<CustomerRow>(`${selectCustomer} WHERE c.email_normalized = $1`, [normalizeEmail(email)]);
  return row;
}

export interface NewCustomer {
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  /** The account chosen on a public page, if any (packages/contracts/src/products.ts). */
  chosenProduct?: string | undefined;
}

/** Inserts unless the email is taken; answers the new id, or undefined when it was taken. */
export async function insertCustomer(db: Queryable, customer: NewCustomer): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO customers (first_name, last_name, email, email_normalized, password_hash, chosen_product)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (email_normalized) DO NOTHING
     RETURNING id`,
    [customer.firstName, customer.lastName, customer.email.trim(), normalizeEmail(customer.email), customer.passwordHash, customer.chosenProduct ?? null],
  );
  return row?.id;
}

export async function markEmailVerified(db: Queryable, customerId: string): Promise<void> {
  await db.query('UPDATE customers SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1', [customerId]);
}

export async function updatePasswordHash(db: Queryable, customerId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE customers SET password_hash = $2, password_changed_at = now() WHERE id = $1', [customerId, passwordHash]);
}

export async function setVerifiedPhone(db: Queryable, customerId: string, phoneE164: string, country: string): Promise<void> {
  await db.query('UPDATE customers SET phone_e164 = $2, phone_country = $3, phone_verified_at = now() WHERE id = $1', [customerId, phoneE164, country]);
}

export async function setProfilePhoto(db: Queryable, customerId: string, fileId: string): Promise<void> {
  await db.query('UPDATE customers SET profile_photo_file_id = $2 WHERE id = $1', [customerId, fileId]);
}
