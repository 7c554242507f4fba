import type { Queryable } from '../../db/database.ts';
import { keysetWalk, type KeysetPosition } from '../../platform/keyset-cursor.ts';
import { securityActionPatterns } from './wording.ts';

/**
 * The customer's security events are audit rows (platform/audit.ts) that the customer did or that
 * named them (a failed sign-in is recorded as anonymous with the account it tried), of the
 * families wording.ts lists. Staff rows about the customer are never shown: they are staff's.
 */
export interface SecurityEventRow {
  id: string;
  occurred_at: Date;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  ip: string | null;
  user_agent: string | null;
  reported: boolean;
  sort_text: string;
}

const ownEventsSql = `a.actor_type IN ('customer', 'anonymous') AND a.actor_id = $1::text AND a.action LIKE ANY ($2::text[])`;

const eventColumns = `a.id::text AS id, a.occurred_at, a.action, a.outcome, a.ip, a.user_agent, (r.id IS NOT NULL) AS reported, a.occurred_at::text AS sort_text`;

const reportJoin = 'LEFT JOIN security_event_reports r ON r.customer_id = $1::uuid AND r.audit_id = a.id';

/** Newest first, one more than `limit` to tell a next page; `limit` null for all (the export). */
export async function listSecurityEvents(
  db: Queryable,
  customerId: string,
  after: KeysetPosition | undefined,
  limit: number | null,
): Promise<SecurityEventRow[]> {
  const parameters: unknown[] = [customerId, [...securityActionPatterns]];
  const { keyset, orderBy } = keysetWalk({ at: 'a.occurred_at', id: 'a.id', idType: 'bigint' }, 'DESC', after, parameters);
  let limitSql = '';
  if (limit !== null) {
    parameters.push(limit + 1);
    limitSql = `LIMIT $${parameters.length}`;
  }
  return db.query<SecurityEventRow>(
    `SELECT ${eventColumns} FROM audit_log a ${reportJoin}
      WHERE ${ownEventsSql} ${keyset} ORDER BY ${orderBy} ${limitSql}`,
    parameters,
  );
}

export async function findSecurityEvent(db: Queryable, customerId: string, eventId: string): Promise<SecurityEventRow | undefined> {
  const [row] = await db.query<SecurityEventRow>(`SELECT ${eventColumns} FROM audit_log a ${reportJoin} WHERE ${ownEventsSql} AND a.id = $3::bigint`, [
    customerId,
    [...securityActionPatterns],
    eventId,
  ]);
  return row;
}

/** Holds the customer's row until commit, so two reports at once are one after the other. */
export async function lockCustomerForReport(db: Queryable, customerId: string): Promise<{ email: string; first_name: string } | undefined> {
  const [row] = await db.query<{ email: string; first_name: string }>('SELECT email, first_name FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
  return row;
}

export async function findReport(db: Queryable, customerId: string, eventId: string): Promise<{ thread_id: string } | undefined> {
  const [row] = await db.query<{ thread_id: string }>('SELECT thread_id FROM security_event_reports WHERE customer_id = $1 AND audit_id = $2::bigint', [
    customerId,
    eventId,
  ]);
  return row;
}

export async function insertReport(db: Queryable, report: { customerId: string; eventId: string; threadId: string }): Promise<void> {
  await db.query('INSERT INTO security_event_reports (customer_id, audit_id, thread_id) VALUES ($1, $2::bigint, $3)', [
    report.customerId,
    report.eventId,
    report.threadId,
  ]);
}
