import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/**
 * The audit log's hash chain (migration 0012): each row holds the hash of the row before it
 * (`prev_hash`) and its own (`row_hash`, SHA-256 of the previous hash in hex, a unit separator and
 * the row's canonical content). The database computes both as it appends; this file recomputes
 * them here, in Node, from the stored fields, so a row altered, inserted or removed behind the
 * application's back shows as a break, whatever the database's own functions now say.
 */
const separator = '\x1f';
const pageSize = 5_000;

interface ChainRow {
  id: string;
  chain_seq: string;
  occurred: string;
  actor_type: string | null;
  actor_id: string | null;
  action: string | null;
  subject: string | null;
  outcome: string | null;
  ip: string | null;
  request_id: string | null;
  user_agent: string | null;
  details: string | null;
  prev_hash: string | null;
  row_hash: string;
}

export interface AuditChainBreak {
  chainSeq: string;
  auditId: string;
  problem: string;
}

export interface AuditChainResult {
  ok: boolean;
  rows: number;
  breaks: AuditChainBreak[];
}

/** Each field as 'v' and its text, or 'n' for null, joined by the unit separator: as audit_log_canonical() in SQL. */
function canonical(row: ChainRow): string {
  const fields = [
    row.chain_seq,
    row.occurred,
    row.actor_type,
    row.actor_id,
    row.action,
    row.subject,
    row.outcome,
    row.ip,
    row.request_id,
    row.user_agent,
    row.details,
  ];
  return fields.map((field) => (field === null ? 'n' : `v${field}`)).join(separator);
}

export function auditRowHash(previousHashHex: string | null, row: ChainRow): string {
  return createHash('sha256')
    .update(`${previousHashHex ?? ''}${separator}${canonical(row)}`, 'utf8')
    .digest('hex');
}

/** Walks the whole chain in order; stops collecting after `maxBreaks` breaks. */
export async function verifyAuditChain(db: Queryable, maxBreaks = 20): Promise<AuditChainResult> {
  const breaks: AuditChainBreak[] = [];
  let rows = 0;
  let previousHash: string | null = null;
  let expectedSeq = 1n;
  let after = 0n;
  for (;;) {
    // The table's bigint column by its full name: the text output column `chain_seq` would sort '10' before '9'.
    const page = await db.query<ChainRow>(
      `SELECT id::text, chain_seq::text, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred,
              actor_type, actor_id, action, subject, outcome, ip, request_id, user_agent, details::text AS details,
              encode(prev_hash, 'hex') AS prev_hash, encode(row_hash, 'hex') AS row_hash
         FROM audit_log WHERE audit_log.chain_seq > $1 ORDER BY audit_log.chain_seq LIMIT $2`,
      [after.toString(), pageSize],
    );
    for (const row of page) {
      rows += 1;
      const seq = BigInt(row.chain_seq);
      const where = { chainSeq: row.chain_seq, auditId: row.id };
      if (seq !== expectedSeq) breaks.push({ ...where, problem: `expected row ${expectedSeq} of the chain here: ${seq - expectedSeq} row(s) missing` });
      if (row.prev_hash !== previousHash) breaks.push({ ...where, problem: 'its previous-row hash does not match the row before it' });
      if (auditRowHash(row.prev_hash, row) !== row.row_hash) breaks.push({ ...where, problem: 'its content does not match its hash: the row was changed' });
      previousHash = row.row_hash;
      expectedSeq = seq + 1n;
      after = seq;
      if (breaks.length >= maxBreaks) return { ok: false, rows, breaks };
    }
    if (page.length < pageSize) break;
  }
  return { ok: breaks.length === 0, rows, breaks };
}
