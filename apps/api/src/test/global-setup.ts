import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { createPostgresTemplate } from './postgres-template.ts';
import { chooseTestSeed, testSeedVariable } from './seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, dumped once per run; every PGlite suite starts from a copy. */
    pgliteTemplatePath: string;
    /** A new PGlite data directory before any migration, dumped once per run, for the tests of a migration itself. */
    pgliteEmptyTemplatePath: string;
    /** A migrated PostgreSQL database, made once per run when DATABASE_URL is set; every PostgreSQL suite starts from a copy. */
    postgresTemplateName: string | undefined;
  }
}

/** The database's files as they are now, right after a checkpoint: a copy then starts with almost no write-ahead log to replay. */
async function dumpAfterCheckpoint(db: Awaited<ReturnType<typeof openPglite>>, file: string): Promise<void> {
  await db.query('CHECKPOINT');
  await writeFile(file, Buffer.from(await (await db.dump()).arrayBuffer()));
}

/**
 * Creating a PGlite database (initdb) costs about 5 s of CPU and migrating it 1.5 s more; loading a
 * dumped copy about half a second. Each test file runs in its own module registry, so a template
 * made inside the files would be made once per file: both templates, before and after the
 * migrations, are made once per run here instead. With DATABASE_URL, so is PostgreSQL's
 * (test/postgres-template.ts), which the server makes while PGlite works here.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgresTemplate = process.env.DATABASE_URL ? createPostgresTemplate(process.env.DATABASE_URL) : undefined;
  // Waited for below; a PGlite failure first must not leave its rejection unhandled.
  postgresTemplate?.catch(() => undefined);
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-pglite-template-'));
  const emptyPath = path.join(directory, 'empty.tar');
  const migratedPath = path.join(directory, 'migrated.tar');
  const db = await openPglite({});
  await dumpAfterCheckpoint(db, emptyPath);
  await migrate(db);
  await dumpAfterCheckpoint(db, migratedPath);
  await db.close();
  project.provide('pgliteTemplatePath', migratedPath);
  project.provide('pgliteEmptyTemplatePath', emptyPath);
  const postgres = await postgresTemplate;
  project.provide('postgresTemplateName', postgres?.name);
  const seed = chooseTestSeed();
  project.provide('testSeed', seed);
  console.log(`Random tests run with seed ${seed}; replay them with ${testSeedVariable}=${seed}`);
  return async () => {
    await postgres?.drop();
    await rm(directory, { recursive: true, force: true });
  };
}
