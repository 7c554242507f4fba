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
  await db.query(
    `INSERT INTO audit_log (actor_type, actor_id, action, subject, outcome, ip, request_id, details, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
    [
      entry.actorType,
      entry.actorId ?? null,
      entry.action,
      entry.subject ?? null,
      entry.outcome,
      entry.ip ?? null,
      entry.requestId ?? null,
      JSON.stringify(entry.details ?? {}),
      entry.userAgent?.slice(0, 300) ?? null,
    ],
  );
}
