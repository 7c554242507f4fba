import { auditLimits, type AuditEntryView, type AuditFilter, type AuditPage } from '@strongroom/contracts/staff-audit.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { auditCsvHeader, auditCsvLine, csvLineBreak } from './csv.ts';
import { findAuditRows, type AuditRow } from './repository.ts';

/** Rows read per query while exporting: the export holds at most `exportMaxRows`, read in steps. */
const exportBatchRows = 5_000;

function viewOf(row: AuditRow): AuditEntryView {
  return {
    id: row.id,
    at: row.occurred_at.toISOString(),
    actorType: row.actor_type,
    actorId: row.actor_id,
    action: row.action,
    subject: row.subject,
    actorName: row.actor_name,
    subjectName: row.subject_name,
    outcome: row.outcome,
    ip: row.ip,
    details: row.details,
  };
}

/** One page, newest first; the cursor is the last row's chain sequence (keyset, stable as rows are appended). */
export async function auditPage(db: Queryable, filter: AuditFilter, cursor: string | undefined): Promise<AuditPage> {
  const rows = await findAuditRows(db, filter, cursor, auditLimits.pageSize + 1);
  const page = rows.slice(0, auditLimits.pageSize);
  const last = page.at(-1);
  return { items: page.map(viewOf), nextCursor: rows.length > auditLimits.pageSize && last ? last.chain_seq : null };
}

export interface AuditExport {
  csv: string;
  rows: number;
  /** True when more rows matched than an export holds. */
  truncated: boolean;
}

/** The same filter as a CSV file, newest first, at most `exportMaxRows` rows. */
export async function auditExport(db: Queryable, filter: AuditFilter): Promise<AuditExport> {
  const lines = [auditCsvHeader];
  let cursor: string | undefined;
  let truncated = false;
  for (;;) {
    const room = auditLimits.exportMaxRows - (lines.length - 1);
    const rows = await findAuditRows(db, filter, cursor, Math.min(exportBatchRows, room) + 1);
    const taken = rows.slice(0, Math.min(exportBatchRows, room));
    for (const row of taken) lines.push(auditCsvLine(viewOf(row)));
    if (rows.length <= taken.length) break;
    if (lines.length - 1 >= auditLimits.exportMaxRows) {
      truncated = true;
      break;
    }
    cursor = taken.at(-1)?.chain_seq;
  }
  return { csv: `${lines.join(csvLineBreak)}${csvLineBreak}`, rows: lines.length - 1, truncated };
}

/** A staff member's CSV export of the log, itself audited with its filter, so a later reader knows which rows left the bank. */
export async function exportAuditLog(db: Queryable, actor: StaffActor, filter: AuditFilter): Promise<AuditExport> {
  const exported = await auditExport(db, filter);
  await recordAudit(
    db,
    auditEntryOf(actor, {
      action: 'audit.export',
      outcome: 'success',
      details: {
        actor: filter.actor ?? null,
        action: filter.action ?? null,
        subject: filter.subject ?? null,
        from: filter.from ?? null,
        to: filter.to ?? null,
        rows: exported.rows,
        truncated: exported.truncated,
      },
    }),
  );
  return exported;
}
