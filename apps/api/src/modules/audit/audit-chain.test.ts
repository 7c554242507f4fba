import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { recordAudit } from '../../platform/audit.ts';
import { verifyAuditChain } from '../../platform/audit-chain.ts';

/** More than 9 rows, so that an order by text ('10' before '9') would show as a break. */
const rowsWritten = 25;

async function writeRows(db: Database, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await recordAudit(db, { actorType: 'system', action: 'test.chain', subject: `row-${index}`, outcome: 'success', details: { index } });
  }
}

async function checkAudit(db: Database) {
  return runOpsCommand({ database: async () => db, config: await testConfig() }, 'check-audit', []);
}

async function withDatabase(kind: Parameters<typeof createTestDatabase>[0], work: (db: Database) => Promise<void>, migrated = true): Promise<void> {
  const { db, dispose } = await createTestDatabase(kind, { migrated });
  try {
    await work(db);
  } finally {
    await dispose();
  }
}

describe.each(testDatabaseKinds)("the audit log's hash chain (%s)", (kind) => {
  it('the database refuses to update or delete an audit row', async () => {
    await withDatabase(kind, async (db) => {
      await writeRows(db, 2);
      await expect(db.query(`UPDATE audit_log SET details = '{"changed":true}'::jsonb`)).rejects.toThrow(/append-only/);
      await expect(db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      await expect(db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
      expect(await db.query('SELECT 1 FROM audit_log')).toHaveLength(2);
    });
  });

  it('check-audit passes on an unbroken chain', async () => {
    await withDatabase(kind, async (db) => {
      await writeRows(db, rowsWritten);
      const result = await checkAudit(db);
      expect(result.output).toContain('Audit chain: OK');
      expect(result.exitCode).toBe(0);
    });
  });

  it('check-audit exits 1 naming a row changed behind the application’s back', async () => {
    await withDatabase(kind, async (db) => {
      await writeRows(db, rowsWritten);
      const [target] = await db.query<{ id: string; chain_seq: string }>(`SELECT id::text, chain_seq::text FROM audit_log WHERE subject = 'row-12'`);
      await db.query('DROP TRIGGER audit_log_no_update ON audit_log');
      await db.query(`UPDATE audit_log SET details = '{"index":999}'::jsonb WHERE id = $1`, [target?.id]);
      const result = await checkAudit(db);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(`row ${target?.chain_seq} (audit id ${target?.id}): its content does not match its hash`);
      expect(result.output).toContain('1 break(s)');
    });
  });

  it('check-audit exits 1 when a row was deleted, naming the row after the gap', async () => {
    await withDatabase(kind, async (db) => {
      await writeRows(db, rowsWritten);
      const [after] = await db.query<{ id: string; chain_seq: string }>(`SELECT id::text, chain_seq::text FROM audit_log WHERE subject = 'row-13'`);
      await db.query('DROP TRIGGER audit_log_no_update ON audit_log');
      await db.query(`DELETE FROM audit_log WHERE subject = 'row-12'`);
      const result = await checkAudit(db);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(
        `row ${after?.chain_seq} (audit id ${after?.id}): expected row ${Number(after?.chain_seq) - 1} of the chain here: 1 row(s) missing`,
      );
      expect(result.output).toContain('its previous-row hash does not match the row before it');
    });
  });

  it('writers in parallel still make one unbroken chain', async () => {
    await withDatabase(kind, async (db) => {
      await Promise.all(
        Array.from({ length: 50 }, (_, index) => recordAudit(db, { actorType: 'system', action: 'test.parallel', outcome: 'success', details: { index } })),
      );
      const result = await verifyAuditChain(db);
      expect(result).toEqual({ ok: true, rows: 50, breaks: [] });
    });
  });

  it('migration 0012 chains the rows written before it', async () => {
    await withDatabase(
      kind,
      async (db) => {
        const migrations = await loadMigrations();
        await migrate(
          db,
          migrations.filter((migration) => migration.version < 12),
        );
        for (let index = 0; index < 12; index += 1) {
          await db.query(
            `INSERT INTO audit_log (actor_type, action, subject, outcome, details) VALUES ('system', 'test.before_chain', $1, 'success', $2::jsonb)`,
            [`old-${index}`, JSON.stringify({ index })],
          );
        }
        await migrate(db, migrations);
        await writeRows(db, 3);
        const result = await checkAudit(db);
        expect(result.output).toContain('rows checked: 15');
        expect(result.exitCode).toBe(0);
        const seqs = await db.query<{ chain_seq: string }>(`SELECT chain_seq::text FROM audit_log WHERE action = 'test.before_chain' ORDER BY id`);
        expect(seqs.map((row) => Number(row.chain_seq))).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
      },
      false,
    );
  });
});
