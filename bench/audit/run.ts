/**
 * `npm run bench:audit`: what the audit log's hash chain (migration 0012) costs. Every append takes
 * a transaction-scoped lock, reads the newest row and hashes, so appends take turns; this measures
 * an append with the chain against the same INSERT into a copy of the table without it, one caller
 * and 16 concurrent callers (PostgreSQL only: PGlite has one connection), and how fast
 * `check-audit` walks the chain. The two tables take turns, round after round, so drift in a shared
 * machine's speed reaches both alike; medians of the rounds are reported. Runs on PGlite, and on
 * PostgreSQL too when DATABASE_URL is set. Appends to bench/RESULTS.md.
 */
import { appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database, DatabaseKind } from '../../apps/api/src/db/database.ts';
import { recordAudit, type AuditEntry } from '../../apps/api/src/platform/audit.ts';
import { verifyAuditChain } from '../../apps/api/src/platform/audit-chain.ts';
import { randomBytes } from 'node:crypto';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { openPglite } from '../../apps/api/src/db/pglite.ts';
import { openPostgres } from '../../apps/api/src/db/postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const appendsPerRound = Number(process.env.BENCH_APPENDS ?? 1_000);
const concurrentCallers = 16;

const entry = (index: number): AuditEntry => ({
  actorType: 'staff',
  actorId: '7d3f6c1e-0000-4000-8000-000000000001',
  action: 'identity.decision',
  subject: `review-${index}`,
  outcome: 'success',
  ip: '198.51.100.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
  requestId: `req-${index}`,
  details: { decision: 'approved', reason: 'Document matches the entered details' },
});

/** The same INSERT into a copy of audit_log without the chain's trigger and columns. */
async function recordUnchained(db: Database, item: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_bench_unchained (actor_type, actor_id, action, subject, outcome, ip, request_id, details, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
    [item.actorType, item.actorId, item.action, item.subject, item.outcome, item.ip, item.requestId, JSON.stringify(item.details), item.userAgent],
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function appendRound(callers: number, append: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const ms = await timed(async () => {
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < appendsPerRound) await append(next++);
      }),
    );
  });
  return (appendsPerRound / ms) * 1_000;
}

/** A fresh, migrated database: PGlite in memory, or a new database on DATABASE_URL's server (dropped after). */
async function freshDatabase(kind: DatabaseKind): Promise<{ db: Database; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite({});
    await migrate(db);
    return { db, dispose: () => db.close() };
  }
  const name = `strongroom_bench_audit_${randomBytes(4).toString('hex')}`;
  const admin = await openPostgres(process.env.DATABASE_URL ?? '', 1);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), concurrentCallers);
  await migrate(db);
  return {
    db,
    async dispose() {
      await db.close();
      await admin.query(`DROP DATABASE ${name}`);
      await admin.close();
    },
  };
}

async function measure(kind: DatabaseKind): Promise<string[]> {
  const database = await freshDatabase(kind);
  const db = database.db;
  try {
    await db.query('CREATE TABLE audit_bench_unchained (LIKE audit_log INCLUDING DEFAULTS)');
    await db.query(
      'ALTER TABLE audit_bench_unchained ALTER COLUMN chain_seq DROP NOT NULL, ALTER COLUMN row_hash DROP NOT NULL, ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY',
    );
    const callerCounts = kind === 'postgres' ? [1, concurrentCallers] : [1];
    const lines: string[] = [];
    for (const callers of callerCounts) {
      const chained: number[] = [];
      const unchained: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        chained.push(await appendRound(callers, (index) => recordAudit(db, entry(index))));
        unchained.push(await appendRound(callers, (index) => recordUnchained(db, entry(index))));
      }
      const withChain = median(chained);
      const without = median(unchained);
      lines.push(
        `| ${kind} | ${callers} | ${Math.round(withChain).toLocaleString('en-US')} | ${Math.round(without).toLocaleString('en-US')} | ${(withChain / without).toFixed(2)} |`,
      );
    }
    const checks: number[] = [];
    let rows = 0;
    for (let round = 0; round < 3; round += 1) {
      let result: Awaited<ReturnType<typeof verifyAuditChain>> | undefined;
      checks.push(await timed(async () => void (result = await verifyAuditChain(db))));
      if (!result?.ok) throw new Error(`the chain broke during the benchmark: ${JSON.stringify(result?.breaks.slice(0, 3))}`);
      rows = result.rows;
    }
    const checkMs = median(checks);
    lines.push(
      `| ${kind} | check-audit over ${rows.toLocaleString('en-US')} rows | ${Math.round((rows / checkMs) * 1_000).toLocaleString('en-US')} rows/s | | |`,
    );
    return lines;
  } finally {
    await database.dispose();
  }
}

const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
const rows: string[] = [];
for (const kind of kinds) rows.push(...(await measure(kind)));
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const report = [
  '',
  `## Audit log hash chain (npm run bench:audit), ${new Date().toISOString().slice(0, 10)}`,
  '',
  `${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${rounds} rounds of ${appendsPerRound.toLocaleString('en-US')} appends, medians.`,
  '',
  '| database | callers | appends/s with the chain | appends/s without (same INSERT, no trigger) | ratio |',
  '|---|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');
process.stdout.write(report);
await appendFile(path.join(root, 'bench/RESULTS.md'), report);
