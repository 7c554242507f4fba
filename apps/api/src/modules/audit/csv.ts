import type { AuditEntryView } from '@strongroom/contracts/staff-audit.ts';

export const auditCsvHeader = 'id,at,actorType,actorId,action,subject,outcome,ip,details';
export const csvLineBreak = '\r\n';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such text
 * gets a leading apostrophe, which spreadsheets show as text. An audit row holds text that
 * customers and visitors chose (an email typed at sign-in, a subject), so every text cell is guarded.
 */
const formulaStart = /^[=+\-@\t\r]/;

/** Guarded against formulas, then quoted as RFC 4180 asks when it holds a comma, a quote or a line break. */
export function csvCell(text: string | null): string {
  if (text === null) return '';
  const guarded = formulaStart.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export function auditCsvLine(entry: AuditEntryView): string {
  return [
    entry.id,
    entry.at,
    entry.actorType,
    entry.actorId,
    entry.action,
    entry.subject,
    entry.outcome,
    entry.ip,
    Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : '',
  ]
    .map(csvCell)
    .join(',');
}
