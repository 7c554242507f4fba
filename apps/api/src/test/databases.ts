import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Database, DatabaseKind } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';
import { databaseUrl } from './postgres-template.ts';

/**
 * Every database-touching suite runs on PGlite in-process and, when `DATABASE_URL` is set, on
 * PostgreSQL too. Each suite gets a fresh, migrated database of its own; nothing is mocked.
 */
export const testDatabaseKinds: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const pgliteTemplates: { migrated?: Promise<Blob>; empty?: Promise<Blob> } = {};

/**
 * Creating a PGlite database takes seconds, and migrating it seconds more; loading a dumped copy
 * takes a fraction of that. Both templates, before and after the migrations, are made once per run
 * by the api project's global setup (test/global-setup.ts); a file run without it (another runner,
 * a single file through another config) makes its own.
 */
function pgliteTemplate(migrated: boolean): Promise<Blob> {
  const which = migrated ? 'migrated' : 'empty';
  pgliteTemplates[which] ??= (async () => {
    const templatePath = inject(migrated ? 'pgliteTemplatePath' : 'pgliteEmptyTemplatePath');
    if (templatePath) return new Blob([await readFile(templatePath)]);
    const db = await openPglite({});
    if (migrated) await migrate(db);
    const dump = await db.dump();
    await db.close();
    return dump;
  })();
  return pgliteTemplates[which];
}

export interface TestDatabase {
  db: Database;
  /** A connection string for other processes, PostgreSQL only. */
  url?: string;
  dispose(): Promise<void>;
}

/** A fresh database of `kind`, migrated unless `{ migrated: false }` (for tests of a migration itself). */
export async function createTestDatabase(kind: DatabaseKind, { migrated = true } = {}): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await openPglite({ loadDataDir: await pgliteTemplate(migrated) });
    return { db, dispose: () => db.close() };
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed for PostgreSQL tests');
  const name = `strongroom_test_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(serverUrl, 1);
  // A migrated database is a copy of the run's migrated template (test/postgres-template.ts) when
  // the global setup made one; a file run without it migrates its own.
  const template = migrated ? inject('postgresTemplateName') : undefined;
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = databaseUrl(serverUrl, name);
  const db = await openPostgres(url, 20);
  if (migrated && !template) await migrate(db);
  return {
    db,
    url,
    async dispose() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

/**
 * Declares the suite once per database kind. `body` receives a getter, because the database is
 * opened in beforeAll, after the suite has been declared.
 */
export function describeEachDatabase(title: string, body: (database: () => Database, kind: DatabaseKind) => void): void {
  for (const kind of testDatabaseKinds) {
    describe(`${title} (${kind})`, () => {
      let testDatabase: TestDatabase | undefined;
      beforeAll(async () => {
        testDatabase = await createTestDatabase(kind);
      });
      afterAll(async () => {
        await testDatabase?.dispose();
      });
      body(() => {
        if (!testDatabase) throw new Error('The test database is not open yet; use it inside a test or hook');
        return testDatabase.db;
      }, kind);
    });
  }
}

/**
 * The same database as another process would see it: on PostgreSQL a pool of its own (its own
 * connections, locks and LISTEN); on PGlite the database itself, whose one connection belongs to
 * this process. Close it before the suite's database is disposed.
 */
export async function openAnotherHandle(db: Database): Promise<{ db: Database; close(): Promise<void> }> {
  if (db.kind === 'pglite') return { db, close: async () => undefined };
  const [row] = await db.query<{ name: string }>('SELECT current_database() AS name');
  const other = await openPostgres(databaseUrl(process.env.DATABASE_URL ?? '', row?.name ?? ''), 4);
  return { db: other, close: () => other.close() };
}
