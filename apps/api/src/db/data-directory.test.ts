import { spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { fakeWebDist } from '../test/app.ts';
import { migrate } from './migrate.ts';
import { openDatabase } from './open-database.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

interface Entry {
  path: string;
  kind: 'directory' | 'file';
  mode: number;
}

async function entriesUnder(directory: string): Promise<Entry[]> {
  const found: Entry[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    const { mode } = await lstat(entryPath);
    if (entry.isDirectory()) {
      found.push({ path: entryPath, kind: 'directory', mode: mode & 0o777 }, ...(await entriesUnder(entryPath)));
    } else {
      found.push({ path: entryPath, kind: 'file', mode: mode & 0o777 });
    }
  }
  return found;
}

/** Entries another local user could read, write or pass through. */
async function reachableByOthers(directory: string): Promise<string[]> {
  const root = (await lstat(directory)).mode & 0o777;
  const entries = await entriesUnder(directory);
  return [
    ...(root & 0o077 ? [`${directory} ${root.toString(8)}`] : []),
    ...entries.filter((entry) => entry.mode & 0o077).map((entry) => `${entry.path} ${entry.mode.toString(8)}`),
  ];
}

const countWalSegments = async (dataDirectory: string) =>
  (await readdir(path.join(dataDirectory, 'pglite', 'pg_wal'))).filter((name) => /^[0-9A-F]{24}$/.test(name)).length;

describe('the data directory', () => {
  it('keeps a new embedded database owner-only, including the WAL segments it starts later', async () => {
    const dataDirectory = path.join(await mkdtemp(path.join(tmpdir(), 'strongroom-modes-')), 'data');
    const db = await openDatabase({ dataDirectory });
    await migrate(db);
    const segmentsBefore = await countWalSegments(dataDirectory);
    await db.query('CREATE TABLE wal_filler (text_value text)');
    // PostgreSQL starts a new WAL segment whenever one is switched out: no need to write 16 MB each.
    for (let segment = 0; segment < 3; segment += 1) {
      await db.query("INSERT INTO wal_filler VALUES ('one more segment')");
      await db.query('SELECT pg_switch_wal()');
    }
    await db.query('CHECKPOINT');
    expect(await countWalSegments(dataDirectory)).toBeGreaterThan(segmentsBefore);
    expect(await reachableByOthers(dataDirectory)).toEqual([]);
    await db.close();

    // And after a restart on the same directory.
    const reopened = await openDatabase({ dataDirectory });
    await reopened.query("INSERT INTO wal_filler VALUES ('after restart')");
    await reopened.close();
    expect(await reachableByOthers(dataDirectory)).toEqual([]);
    expect((await lstat(dataDirectory)).mode & 0o777).toBe(0o700);
    // 40 to 55 s in full runs on a loaded 2-core machine (decision 084).
  }, 360_000);

  it('makes an existing world-readable data directory owner-only when the server starts, and says so in the log', async () => {
    const dataDirectory = path.join(await mkdtemp(path.join(tmpdir(), 'strongroom-modes-')), 'data');
    // The data directory as an earlier version left it: PGlite's 0666 files in 0755 folders.
    await mkdir(path.join(dataDirectory, 'uploads', 'ab'), { recursive: true, mode: 0o755 });
    const earlier = new PGlite({ dataDir: path.join(dataDirectory, 'pglite') });
    await earlier.waitReady;
    await earlier.close();
    await writeFile(path.join(dataDirectory, 'uploads', 'ab', 'abcdef12-document.bin'), 'encrypted bytes', { mode: 0o644 });
    for (const entry of await entriesUnder(dataDirectory)) await chmod(entry.path, entry.kind === 'directory' ? 0o755 : 0o666);
    await chmod(dataDirectory, 0o755);
    const exposedBefore = (await reachableByOthers(dataDirectory)).length;
    expect(exposedBefore).toBeGreaterThan(900);

    const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: repositoryRoot,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: '', PORT: '0', LOG_LEVEL: 'info', WEB_DIST_DIR: await fakeWebDist() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => server.on('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the server did not open: ${output}`)), 90_000);
        server.stdout.on('data', () => {
          if (output.includes('is open at')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const warning = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; entries?: number; dataDirectory?: string })
        .find((line) => line.msg.startsWith('DATA_DIR had entries that other users could reach'));
      expect(warning, output).toMatchObject({ level: 40, entries: exposedBefore, dataDirectory });
      expect(await reachableByOthers(dataDirectory)).toEqual([]);
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    // 64 to 87 s in full runs on a loaded 2-core machine (decision 084).
  }, 360_000);
});
