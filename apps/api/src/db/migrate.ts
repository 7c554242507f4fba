import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const migrationsDirectory = fileURLToPath(new URL('./migrations/', import.meta.url));
const migrationFilePattern = /^(\d{4})_[a-z0-9_]+\.sql$/;
/** Any fixed number: it names the lock that keeps two booting servers from migrating at once. */
const migrationLockKey = 7_401_113;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function loadMigrations(directory = migrationsDirectory): Promise<Migration[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = migrationFilePattern.exec(file);
    if (!match) throw new Error(`Migration file name must look like 0001_name.sql: ${file}`);
    const version = Number(match[1]);
    if (migrations.some((migration) => migration.version === version)) {
      throw new Error(`Two migrations share version ${version}`);
    }
    migrations.push({ version, name: file, sql: await readFile(directory + file, 'utf8') });
  }
  return migrations;
}

/**
 * Applies every migration not yet applied, in version order, in one transaction: a failure leaves
 * the schema as it was. The same files run on PGlite and PostgreSQL. Returns the names applied.
 */
export async function migrate(db: Database, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.executeScript(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      );`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await tx.executeScript(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}
