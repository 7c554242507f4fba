import type { Queryable } from '../db/database.ts';

export interface AuditEntry {
  actorType: 'customer' | 'staff' | 'system' | 'anonymous';
  actorId?: string;
  action: string;
  subject?: string;
  outcome: 'success' | 'failure' | 'denied';
  ip?: string;
  userAgent?: string;
  requestId?: string;
  /** Never a password, code, token or card number: callers pass identifiers and outcomes only. */
  details?: Record<string, string | number | boolean | null>;
}

/** Appends to the audit log; the table refuses updates and deletes. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/**
 * Appends several entries, in order, in one statement. Each append takes the chain's lock
 * (migration 0012) until its transaction commits, so a transaction that audits should do it last,
 * right before its commit, and many entries of one transaction go together here (decision 044).
 */
export async function recordAudits(db: Queryable, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const append = auditAppend(entries, 1);
  await db.query(append.text, append.values, { name: 'audit_log_append' });
}

/**
 * The append of `entries` as SQL to compose into a larger statement (decision 088): its text, whose
 * parameters are numbered from `firstParameter`, and their values. `after`, if given, is a query
 * the append waits for: no entry is inserted (and the chain's lock is not taken) before it has run
 * to its end.
 */
export function auditAppend(entries: readonly AuditEntry[], firstParameter: number, after?: string): { text: string; values: unknown[] } {
  const p = (offset: number) => `$${firstParameter + offset}::text[]`;
  return {
    text: `INSERT INTO audit_log (actor_type, actor_id, action, subject, outcome, ip, request_id, details, user_agent)
     SELECT actor_type, actor_id, action, subject, outcome, ip, request_id, details::jsonb, user_agent
       FROM unnest(${[0, 1, 2, 3, 4, 5, 6, 7, 8].map(p).join(', ')})
            WITH ORDINALITY AS entry (actor_type, actor_id, action, subject, outcome, ip, request_id, details, user_agent, position)
      ${after === undefined ? '' : `WHERE (SELECT count(*) FROM (${after}) AS before_the_chain) >= 0`}
      ORDER BY position`,
    values: [
      entries.map((entry) => entry.actorType),
      entries.map((entry) => entry.actorId ?? null),
      entries.map((entry) => entry.action),
      entries.map((entry) => entry.subject ?? null),
      entries.map((entry) => entry.outcome),
      entries.map((entry) => entry.ip ?? null),
      entries.map((entry) => entry.requestId ?? null),
      entries.map((entry) => JSON.stringify(entry.details ?? {})),
      entries.map((entry) => entry.userAgent?.slice(0, 300) ?? null),
    ],
  };
}
