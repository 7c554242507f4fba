import type { AuditFilter } from '@strongroom/contracts/staff-audit.ts';
import type { Queryable } from '../../db/database.ts';

export interface AuditRow {
  id: string;
  chain_seq: string;
  occurred_at: Date;
  actor_type: 'customer' | 'staff' | 'system' | 'anonymous';
  actor_id: string | null;
  action: string;
  subject: string | null;
  outcome: 'success' | 'failure' | 'denied';
  ip: string | null;
  details: Record<string, string | number | boolean | null>;
  actor_name: string | null;
  subject_name: string | null;
}

/**
 * An audit id as a uuid, or null: actors and subjects are free text (`ops-cli`, `bank_settings`, a
 * payment id with its side), and a cast of those would fail the query. CASE evaluates in order.
 */
const asUuid = (column: string) => `CASE WHEN ${column} ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN ${column}::uuid END`;

/** A staff member by email, a customer by name: the words the console shows beside an id. */
const nameOf = (column: string, staffAlias: string, customerAlias: string) =>
  `LEFT JOIN staff ${staffAlias} ON ${staffAlias}.id = ${asUuid(column)}
   LEFT JOIN customers ${customerAlias} ON ${customerAlias}.id = ${asUuid(column)}`;

/**
 * The WHERE clause of a filter. `actor` is an id as stored (a staff or customer id) or a staff
 * email; `action` ending in a dot is a prefix (`staff.`); dates are inclusive UTC days.
 */
function whereOf(filter: AuditFilter, parameters: unknown[]): string {
  const conditions: string[] = [];
  const parameter = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  if (filter.actor) {
    const actor = parameter(filter.actor);
    conditions.push(`(actor_id = ${actor} OR actor_id IN (SELECT id::text FROM staff WHERE email_normalized = lower(${actor})))`);
  }
  if (filter.action?.endsWith('.')) {
    conditions.push(`starts_with(action, ${parameter(filter.action)})`);
  } else if (filter.action) {
    conditions.push(`action = ${parameter(filter.action)}`);
  }
  if (filter.subject) conditions.push(`subject = ${parameter(filter.subject)}`);
  if (filter.from) conditions.push(`occurred_at >= (${parameter(filter.from)}::date)::timestamp AT TIME ZONE 'UTC'`);
  if (filter.to) conditions.push(`occurred_at < ((${parameter(filter.to)}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * Newest first by the chain's sequence (the table's bigint: the text output column of the same name
 * would sort '99' after '105'); `beforeSeq` is the keyset cursor (the last row's sequence). */
export async function findAuditRows(db: Queryable, filter: AuditFilter, beforeSeq: string | undefined, limit: number): Promise<AuditRow[]> {
  const parameters: unknown[] = [];
  let where = whereOf(filter, parameters);
  if (beforeSeq !== undefined) {
    parameters.push(beforeSeq);
    where = `${where ? `${where} AND` : 'WHERE'} chain_seq < $${parameters.length}`;
  }
  parameters.push(limit);
  return db.query<AuditRow>(
    // The page is chosen first and named after, so the joins touch at most `limit` rows.
    `SELECT page.id, page.chain_seq::text AS chain_seq, page.occurred_at, page.actor_type, page.actor_id, page.action, page.subject,
            page.outcome, page.ip, page.details,
            CASE page.actor_type WHEN 'staff' THEN actor_staff.email
                                 WHEN 'customer' THEN actor_customer.first_name || ' ' || actor_customer.last_name END AS actor_name,
            COALESCE(subject_staff.email, subject_customer.first_name || ' ' || subject_customer.last_name) AS subject_name
       FROM (SELECT id::text AS id, chain_seq, occurred_at, actor_type, actor_id, action, subject, outcome, ip, details
               FROM audit_log ${where} ORDER BY audit_log.chain_seq DESC LIMIT $${parameters.length}) AS page
       ${nameOf('page.actor_id', 'actor_staff', 'actor_customer')}
       ${nameOf('page.subject', 'subject_staff', 'subject_customer')}
      ORDER BY page.chain_seq DESC`,
    parameters,
  );
}
