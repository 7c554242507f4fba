import { businessConstants } from '@strongroom/contracts/constants.ts';
import type { Queryable } from '../../db/database.ts';
import type { CustomerContactRow } from '../customers/service.ts';

/** SQL of customer care: search, a customer's record, their live sessions, and freezes (0015). */
export type IdentityStatus = 'not_submitted' | 'submitted' | 'approved' | 'rejected';

export interface CustomerSummaryRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  identity_status: IdentityStatus;
  frozen: boolean;
  created_at: Date;
}

const summaryColumns = `
  c.id, c.first_name, c.last_name, c.email, c.created_at,
  coalesce((SELECT status FROM identity_reviews WHERE customer_id = c.id ORDER BY submitted_at DESC LIMIT 1), 'not_submitted') AS identity_status,
  EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = c.id AND f.unfrozen_at IS NULL) AS frozen`;

/** LIKE treats % and _ as wildcards and \ as the escape; a customer's text matches only itself. */
export function likePatternOf(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** By name ("first last" too), email or account number, case-insensitive; newest first. */
export async function searchCustomers(db: Queryable, text: string, limit: number): Promise<CustomerSummaryRow[]> {
  return db.query<CustomerSummaryRow>(
    `SELECT ${summaryColumns} FROM customers c
      WHERE c.first_name ILIKE $1 ESCAPE '\\' OR c.last_name ILIKE $1 ESCAPE '\\'
         OR (c.first_name || ' ' || c.last_name) ILIKE $1 ESCAPE '\\'
         OR c.email ILIKE $1 ESCAPE '\\'
         OR EXISTS (SELECT 1 FROM customer_accounts a WHERE a.customer_id = c.id AND a.number LIKE $1 ESCAPE '\\')
      ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
    [likePatternOf(text), limit],
  );
}

export async function newestCustomers(db: Queryable, limit: number): Promise<CustomerSummaryRow[]> {
  return db.query<CustomerSummaryRow>(`SELECT ${summaryColumns} FROM customers c ORDER BY c.created_at DESC, c.id DESC LIMIT $1`, [limit]);
}

/** The profile staff see: deliberately no password hash (not selected, so it cannot leak). */
export interface CustomerProfileRow extends CustomerContactRow {
  created_at: Date;
}

export async function findCustomerProfile(db: Queryable, customerId: string): Promise<CustomerProfileRow | undefined> {
  const [row] = await db.query<CustomerProfileRow>(
    `SELECT id, first_name, last_name, email, email_verified_at, phone_e164, phone_verified_at, created_at FROM customers WHERE id = $1`,
    [customerId],
  );
  return row;
}

/** The latest identity review: its state and the last four digits only, never the encrypted number. */
export interface IdentityReviewRow {
  status: IdentityStatus;
  reason: string | null;
  id_number_last4: string;
  country: string;
  submitted_at: Date;
}

export async function latestIdentityReview(db: Queryable, customerId: string): Promise<IdentityReviewRow | undefined> {
  const [row] = await db.query<IdentityReviewRow>(
    `SELECT status, reason, id_number_last4, country, submitted_at FROM identity_reviews
      WHERE customer_id = $1 ORDER BY submitted_at DESC LIMIT 1`,
    [customerId],
  );
  return row;
}

/**
 * A session's public handle is the hex of the first 8 bytes of its id's SHA-256 hash: stable and
 * enough to tell a customer's sessions apart, and it reveals neither the session id nor its hash.
 */
export const sessionHandleBytes = 8;
const handleSql = `encode(substring(id_hash from 1 for ${sessionHandleBytes}), 'hex')`;
const liveSql = `realm = 'customer' AND subject_id = $1 AND ended_at IS NULL AND absolute_expires_at > now()
  AND last_seen_at > now() - make_interval(secs => ${businessConstants.sessionIdleTimeoutMs / 1000})`;

export interface SessionRow {
  handle: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_seen_at: Date;
}

export async function liveSessions(db: Queryable, customerId: string, limit: number): Promise<SessionRow[]> {
  return db.query<SessionRow>(
    `SELECT ${handleSql} AS handle, user_agent, ip, created_at, last_seen_at FROM sessions
      WHERE ${liveSql} ORDER BY last_seen_at DESC LIMIT $2`,
    [customerId, limit],
  );
}

/** Ends one live session by its handle; false when it is not a live session of this customer. */
export async function endSessionByHandle(db: Queryable, customerId: string, handle: string): Promise<boolean> {
  const rows = await db.query(`UPDATE sessions SET ended_at = now() WHERE ${liveSql} AND ${handleSql} = $2 RETURNING 1`, [customerId, handle]);
  return rows.length > 0;
}

export interface FreezeRow {
  reason: string;
  customer_message: string;
  frozen_at: Date;
  frozen_by_email: string;
}

/** Who froze a customer who froze their own account ("This wasn't me"), as staff read it. */
export const frozenByCustomerWording = 'the customer themselves ("This wasn\'t me")';

export async function openFreeze(db: Queryable, customerId: string): Promise<FreezeRow | undefined> {
  const [row] = await db.query<FreezeRow>(
    `SELECT f.reason, f.customer_message, f.frozen_at, COALESCE(s.email, $2) AS frozen_by_email FROM customer_freezes f LEFT JOIN staff s ON s.id = f.frozen_by
      WHERE f.customer_id = $1 AND f.unfrozen_at IS NULL`,
    [customerId, frozenByCustomerWording],
  );
  return row;
}

/**
 * The customer's own freeze ("This wasn't me"): the same open freeze a staff member's is, lifted
 * by staff the same way. False when a freeze is already open (staff's or an earlier report's).
 */
export async function insertCustomerFreeze(db: Queryable, customerId: string, reason: string, customerMessage: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO customer_freezes (customer_id, frozen_by, frozen_by_customer, reason, customer_message) VALUES ($1, NULL, true, $2, $3)
     ON CONFLICT (customer_id) WHERE unfrozen_at IS NULL DO NOTHING RETURNING 1`,
    [customerId, reason, customerMessage],
  );
  return rows.length > 0;
}

/**
 * `reason` is staff's own (audit log, staff page); `customerMessage` is what the customer reads.
 * False when the customer is already frozen (the unique index of open freezes decides, even under a race).
 */
export async function insertFreeze(db: Queryable, customerId: string, staffId: string, reason: string, customerMessage: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO customer_freezes (customer_id, frozen_by, reason, customer_message) VALUES ($1, $2, $3, $4)
     ON CONFLICT (customer_id) WHERE unfrozen_at IS NULL DO NOTHING RETURNING 1`,
    [customerId, staffId, reason, customerMessage],
  );
  return rows.length > 0;
}

/** False when the customer is not frozen. */
export async function liftFreeze(db: Queryable, customerId: string, staffId: string, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE customer_freezes SET unfrozen_at = now(), unfrozen_by = $2, unfreeze_reason = $3
      WHERE customer_id = $1 AND unfrozen_at IS NULL RETURNING 1`,
    [customerId, staffId, reason],
  );
  return rows.length > 0;
}
