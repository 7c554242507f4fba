import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { chooseTestSeed, testSeedVariable } from './seed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, dumped once per run; every PGlite suite starts from a copy. */
    pgliteTemplatePath: string;
  }
}

/**
 * Creating and migrating a PGlite database costs about 4 s of CPU; loading a dumped copy about
 * half a second. Each test file runs in its own module registry, so a template made inside the
 * files would be made once per file: it is made once per run here instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-pglite-template-'));
  const templatePath = path.join(directory, 'migrated.tar');
  const db = await openPglite({});
  await migrate(db);
  await writeFile(templatePath, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplatePath', templatePath);
  const seed = chooseTestSeed();
  project.provide('testSeed', seed);
  console.log(`Random tests run with seed ${seed}; replay them with ${testSeedVariable}=${seed}`);
  return async () => {
    await rm(directory, { recursive: true, force: true });
  };
}
