import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { migrate } from '../../db/migrate.ts';
import { openDatabase } from '../../db/open-database.ts';
import { writeServerLock } from '../../platform/server-lock.ts';
import { runOpsCommandHere } from './registry.ts';

/**
 * `backup` and `restore` in this process, as the CLI runs them without a server (the running
 * server's case, with money moving, is faults/backup.test.ts). Decision 040.
 */
const made: string[] = [];
async function temporaryDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-backup-unit-'));
  made.push(directory);
  return directory;
}
afterAll(async () => Promise.all(made.map((directory) => rm(directory, { recursive: true, force: true }))));

/** Runs one command as `npm run ops` does without a server. */
const ops = runOpsCommandHere;

const embedded = async (dataDirectory: string) => loadConfig({ DATA_DIR: dataDirectory, LOG_LEVEL: 'silent' });

describe('ops backup and restore (embedded database)', () => {
  it('are listed by help', async () => {
    const help = await ops(await embedded(await temporaryDirectory()), 'help', []);
    expect(help.output).toMatch(/backup FILE\s+.+\n/);
    expect(help.output).toMatch(/restore FILE\s+.+/);
  });

  it('write an owner-only backup that restores the database, the secrets and the uploads into an empty directory, and nowhere else', async () => {
    const source = await embedded(await temporaryDirectory());
    await mkdir(path.join(source.dataDirectory, 'uploads/ab'), { recursive: true });
    await writeFile(path.join(source.dataDirectory, 'uploads/ab/file.bin'), 'encrypted bytes');
    const seeded = await openDatabase(source);
    await migrate(seeded);
    await seeded.query(`CREATE TABLE backup_probe (value text)`);
    await seeded.query(`INSERT INTO backup_probe VALUES ('kept')`);
    await seeded.close();

    const file = path.join(await temporaryDirectory(), 'bank.zip');
    const backup = await ops(source, 'backup', [file]);
    expect(backup.exitCode, backup.output).toBe(0);
    expect(JSON.parse(backup.output)).toMatchObject({ file, database: 'pglite', secrets: true, uploads: 1 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const overwrite = await ops(source, 'backup', [file]);
    expect(overwrite).toMatchObject({ exitCode: 1, output: expect.stringContaining('already exists') });

    // A fresh directory: the CLI's start has already written new sandbox secrets there; the backup's replace them.
    const target = await embedded(await temporaryDirectory());
    const restore = await ops(target, 'restore', [file]);
    expect(restore.exitCode, restore.output).toBe(0);
    expect(JSON.parse(restore.output)).toMatchObject({ restored: target.dataDirectory, secrets: true, uploads: 1 });
    expect(await readFile(path.join(target.dataDirectory, 'sandbox-secrets.json'), 'utf8')).toBe(
      await readFile(path.join(source.dataDirectory, 'sandbox-secrets.json'), 'utf8'),
    );
    expect(await readFile(path.join(target.dataDirectory, 'uploads/ab/file.bin'), 'utf8')).toBe('encrypted bytes');
    expect((await stat(path.join(target.dataDirectory, 'uploads/ab/file.bin'))).mode & 0o777).toBe(0o600);
    const restored = await openDatabase(target);
    expect(await restored.query('SELECT value FROM backup_probe')).toEqual([{ value: 'kept' }]);
    await restored.close();

    // Never over data, never under a running server.
    const again = await ops(target, 'restore', [file]);
    expect(again).toMatchObject({ exitCode: 1, output: expect.stringContaining('already holds data (pglite, uploads)') });
    const owned = await embedded(await temporaryDirectory());
    await writeServerLock(owned.dataDirectory, { pid: process.pid, port: 3000, token: 'x'.repeat(43) });
    const underServer = await ops(owned, 'restore', [file]);
    expect(underServer).toMatchObject({ exitCode: 1, output: expect.stringContaining(`A server (pid ${process.pid}, port 3000) is using`) });
    // Several file-backed PGlite databases, each opened and migrated as the CLI does: 39 s in one
    // fresh-clone CI run, past a minute in the next, beside the other suites; 115 s in a full run
    // on a loaded 2-core machine (decision 084).
  }, 360_000);

  it('refuse a file that is not a complete backup, and a missing FILE', async () => {
    const directory = await temporaryDirectory();
    const config = await embedded(await temporaryDirectory());
    const notZip = path.join(directory, 'notes.txt');
    await writeFile(notZip, 'not a backup');
    expect(await ops(config, 'restore', [notZip])).toMatchObject({ exitCode: 1, output: expect.stringContaining('is not a readable backup') });
    expect(await ops(config, 'restore', [path.join(directory, 'missing.zip')])).toMatchObject({
      exitCode: 1,
      output: expect.stringContaining('does not exist'),
    });
    expect(await ops(config, 'backup', [])).toMatchObject({ exitCode: 2, output: expect.stringContaining('Usage: npm run ops -- backup FILE') });
    expect(await ops(config, 'restore', ['a', 'b'])).toMatchObject({ exitCode: 2 });
  });

  it('point to pg_dump and pg_restore on PostgreSQL', async () => {
    const config = await loadConfig({ DATA_DIR: await temporaryDirectory(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' });
    const backup = await ops(config, 'backup', ['/tmp/never-written.dump']);
    expect(backup).toMatchObject({ exitCode: 1, output: expect.stringContaining('pg_dump -Fc') });
    const restore = await ops(config, 'restore', ['/tmp/never-written.dump']);
    expect(restore).toMatchObject({ exitCode: 1, output: expect.stringContaining('pg_restore --clean --if-exists') });
  });
});
