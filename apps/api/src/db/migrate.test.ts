import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import { loadMigrations, migrate } from './migrate.ts';

describeEachDatabase('migrations', (database) => {
  it('applies every migration once and a second run applies nothing', async () => {
    const migrations = await loadMigrations();
    const rows = await database().query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(migrations.map((migration) => migration.version));
    expect(await migrate(database())).toEqual([]);
  });

  it('returns bigint columns as BigInt on both drivers', async () => {
    const [row] = await database().query<{ big: bigint }>('SELECT $1::bigint AS big', [9_007_199_254_740_993n]);
    expect(row?.big).toBe(9_007_199_254_740_993n);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      database().transaction(async (tx) => {
        await tx.query("INSERT INTO outbox_messages (channel, to_address, text_body) VALUES ('email', 'a@b.co', 'x')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await database().query("SELECT 1 FROM outbox_messages WHERE to_address = 'a@b.co'");
    expect(rows).toHaveLength(0);
  });

  it('refuses to change or delete an audit log row', async () => {
    await database().query("INSERT INTO audit_log (actor_type, action, outcome) VALUES ('system', 'test', 'success')");
    await expect(database().query("UPDATE audit_log SET action = 'changed'")).rejects.toThrow(/append-only/);
    await expect(database().query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('loadMigrations', () => {
  it('orders migrations by version and names them by file', async () => {
    const migrations = await loadMigrations();
    expect(migrations[0]?.name).toBe('0001_platform.sql');
    expect(migrations.map((m) => m.version)).toEqual([...migrations.map((m) => m.version)].sort((a, b) => a - b));
  });
});
