import { describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDatabase, testDatabaseKinds } from '../test/databases.ts';
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

describe.each(testDatabaseKinds)('migration 0010 on a database with payments (%s)', (kind) => {
  it("moves a held payment's review rule from details into its column and leaves other details alone", async () => {
    const { db, dispose } = await createTestDatabase(kind, { migrated: false });
    try {
      const migrations = await loadMigrations();
      await migrate(
        db,
        migrations.filter((migration) => migration.version < 10),
      );
      const [customer] = await db.query<{ id: string }>(
        `INSERT INTO customers (email, email_normalized, password_hash, first_name, last_name) VALUES ('held@example.com', 'held@example.com', 'x', 'Held', 'Payer') RETURNING id`,
      );
      const [account] = await db.query<{ id: string }>(
        `INSERT INTO customer_accounts (customer_id, type, number, name) VALUES ($1, 'checking', '1000000001', 'Easy Checking') RETURNING id`,
        [customer?.id],
      );
      const insert = (details: object) =>
        db.query<{ id: string }>(
          `INSERT INTO payments (id, customer_id, kind, status, from_account_id, amount_cents, details)
           VALUES (gen_random_uuid(), $1, 'external', 'in_review', $2, 100, $3::jsonb) RETURNING id`,
          [customer?.id, account?.id, JSON.stringify(details)],
        );
      const [held] = await insert({ reviewRule: 'single_transfer', state: 'Illinois' });
      const [plain] = await insert({ state: 'Ohio' });

      await migrate(db, migrations);
      const rows = await db.query<{ id: string; review_rule: string | null; details: Record<string, unknown> }>(
        'SELECT id, review_rule, details FROM payments ORDER BY review_rule NULLS LAST',
      );
      expect(rows).toEqual([
        { id: held?.id, review_rule: 'single_transfer', details: { state: 'Illinois' } },
        { id: plain?.id, review_rule: null, details: { state: 'Ohio' } },
      ]);
    } finally {
      await dispose();
    }
  });
});
