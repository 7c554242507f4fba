import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { ownerOnlyDirectoryMode, ownerOnlyFileMode, secureDataDirectory } from '../../db/data-directory.ts';
import { openPglite } from '../../db/pglite.ts';
import { ok, OpsUsageError, type OpsCommand, type OpsResult } from '../../platform/ops-command.ts';
import { serverLockPath } from '../../platform/server-lock.ts';

/**
 * `backup FILE` and `restore FILE` for the embedded database (docs/decisions/040-sqlmap-and-backups.md).
 * A backup is one zip file, owner-only, holding what DATA_DIR needs to become the same bank again:
 * the PGlite data directory as a tarball taken at one consistent moment, the sandbox secrets (the
 * session secret and the encryption key the uploads and card numbers are encrypted under) when
 * they live in DATA_DIR, and the uploaded files (already encrypted) when they are not in a bucket.
 * On PostgreSQL both commands point to pg_dump and pg_restore.
 */
const backupFormat = 'strongroom-backup';
const backupVersion = 1;
const databaseEntry = 'database/pglite.tar';
const secretsEntry = 'sandbox-secrets.json';
const uploadsPrefix = 'uploads/';

const manifestSchema = z.object({
  format: z.literal(backupFormat),
  version: z.literal(backupVersion),
  createdAt: z.string(),
  database: z.literal('pglite'),
  migrations: z.array(z.string()),
  secrets: z.boolean(),
  uploads: z.number().int().min(0),
});
type Manifest = z.infer<typeof manifestSchema>;

const failed = (output: string): OpsResult => ({ exitCode: 1, output });

function postgresAdvice(action: 'backup' | 'restore'): OpsResult {
  return failed(
    action === 'backup'
      ? 'This bank runs on PostgreSQL (DATABASE_URL): back it up with PostgreSQL\'s own tool, e.g. pg_dump -Fc --no-owner -f strongroom.dump "$DATABASE_URL" (docs/operations.md, "Backups").'
      : 'This bank runs on PostgreSQL (DATABASE_URL): restore with PostgreSQL\'s own tool, e.g. pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" strongroom.dump (docs/operations.md, "Backups").',
  );
}

function fileArgument(args: string[], workingDirectory: string | undefined): string {
  if (args.length !== 1 || !args[0] || args[0].startsWith('--')) throw new OpsUsageError('Give one FILE.');
  return path.resolve(workingDirectory ?? process.cwd(), args[0]);
}

/** Every regular file under `directory`, by its path relative to it (links are not followed). */
async function filesUnder(directory: string, prefix = ''): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  const entries = await readdir(directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) Object.assign(files, await filesUnder(entryPath, `${prefix}${entry.name}/`));
    else if (entry.isFile()) files[`${prefix}${entry.name}`] = await readFile(entryPath);
  }
  return files;
}

const uploadsDirectoryOf = (config: Config) => path.join(config.dataDirectory, 'uploads');
const secretsFileOf = (config: Config) => path.join(config.dataDirectory, secretsEntry);

export const backupCommand: OpsCommand = {
  name: 'backup',
  summary: 'Write the embedded database, its secrets and uploads to FILE (0600), even while the server runs',
  usage: 'backup FILE',
  async run({ database, config, workingDirectory }, args) {
    const file = fileArgument(args, workingDirectory);
    if (config.databaseUrl) return postgresAdvice('backup');
    const db = await database();
    if (db.kind !== 'pglite' || !('dump' in db) || typeof db.dump !== 'function') return postgresAdvice('backup');
    // The database first, at one moment; files uploaded after it are extra, never missing.
    const dump = (await db.dump()) as Blob;
    const migrations = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version');
    const secrets = await readFile(secretsFileOf(config)).catch(() => undefined);
    const uploads = config.s3 ? {} : await filesUnder(uploadsDirectoryOf(config));
    const manifest: Manifest = {
      format: backupFormat,
      version: backupVersion,
      createdAt: new Date().toISOString(),
      database: 'pglite',
      migrations: migrations.map((migration) => migration.name),
      secrets: secrets !== undefined,
      uploads: Object.keys(uploads).length,
    };
    const entries: Record<string, Uint8Array> = {
      'manifest.json': strToU8(JSON.stringify(manifest, null, 2)),
      [databaseEntry]: new Uint8Array(await dump.arrayBuffer()),
    };
    if (secrets) entries[secretsEntry] = secrets;
    for (const [name, content] of Object.entries(uploads)) entries[`${uploadsPrefix}${name}`] = content;
    const archive = zipSync(entries, { level: 6 });
    try {
      // 'wx': a backup never overwrites a file; 0600 from the first byte (it holds the encryption key).
      await writeFile(file, archive, { mode: ownerOnlyFileMode, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return failed(`${file} already exists; a backup never overwrites a file. Choose a new name.`);
      throw error;
    }
    await chmod(file, ownerOnlyFileMode);
    const notes = [
      ...(secrets ? [] : ['SESSION_SECRET and ENCRYPTION_KEY come from the environment: keep them with this backup, the restored bank needs the same ones.']),
      ...(config.s3 ? [`Uploaded files are in the bucket ${config.s3.bucket}: back it up separately.`] : []),
    ];
    return ok({
      file,
      bytes: archive.byteLength,
      database: 'pglite',
      migrations: manifest.migrations.length,
      secrets: manifest.secrets,
      uploads: manifest.uploads,
      notes,
    });
  },
};

/** The live server on DATA_DIR, this process included (inside the server, the command is refused too). */
async function ownerOf(dataDirectory: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await readFile(serverLockPath(dataDirectory), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lock = z.object({ pid: z.number().int(), port: z.number().int() }).safeParse(JSON.parse(text));
  if (!lock.success) return undefined;
  try {
    process.kill(lock.data.pid, 0);
    return lock.data;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? lock.data : undefined;
  }
}

/** What DATA_DIR holds besides what a fresh start writes (sandbox secrets nothing is encrypted under yet, a stale lock). */
async function dataIn(dataDirectory: string): Promise<string[]> {
  const entries = await readdir(dataDirectory).catch(() => [] as string[]);
  const found: string[] = [];
  for (const entry of entries) {
    if (entry === secretsEntry || entry === 'server.json') continue;
    if ((entry === 'pglite' || entry === 'uploads') && (await readdir(path.join(dataDirectory, entry)).catch(() => [])).length === 0) continue;
    found.push(entry);
  }
  return found;
}

function readBackup(archive: Uint8Array): { manifest: Manifest; entries: Record<string, Uint8Array> } | string {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive);
  } catch (error) {
    return `not a readable backup (${error instanceof Error ? error.message : String(error)})`;
  }
  const manifestBytes = entries['manifest.json'];
  if (!manifestBytes || !entries[databaseEntry]) return 'not a Strongroom backup (no manifest or database in it)';
  let manifest: unknown;
  try {
    manifest = JSON.parse(strFromU8(manifestBytes));
  } catch {
    return 'not a Strongroom backup (its manifest is not JSON)';
  }
  const parsed = manifestSchema.safeParse(manifest);
  if (!parsed.success) return 'not a Strongroom backup of a version this program reads';
  return { manifest: parsed.data, entries };
}

export const restoreCommand: OpsCommand = {
  name: 'restore',
  summary: 'Restore a backup into an empty DATA_DIR (embedded database); refuses a directory with data',
  usage: 'restore FILE',
  async run({ config, workingDirectory }, args) {
    const file = fileArgument(args, workingDirectory);
    if (config.databaseUrl) return postgresAdvice('restore');
    const dataDirectory = config.dataDirectory;
    const owner = await ownerOf(dataDirectory);
    if (owner)
      return failed(
        `A server (pid ${owner.pid}, port ${owner.port}) is using ${dataDirectory}. A restore never replaces a running bank's data: restore into a new, empty directory (DATA_DIR=/path/to/new npm run ops -- restore FILE).`,
      );
    const existing = await dataIn(dataDirectory);
    if (existing.length > 0)
      return failed(
        `${dataDirectory} already holds data (${existing.join(', ')}). A restore only fills an empty directory: choose a new DATA_DIR (DATA_DIR=/path/to/new npm run ops -- restore FILE).`,
      );
    const archive = await readFile(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (!archive) return failed(`${file} does not exist.`);
    const backup = readBackup(archive);
    if (typeof backup === 'string') return failed(`${file} is ${backup}.`);
    const { manifest, entries } = backup;
    const uploads = Object.keys(entries).filter((name) => name.startsWith(uploadsPrefix) && !name.endsWith('/'));
    if (manifest.secrets !== (entries[secretsEntry] !== undefined) || manifest.uploads !== uploads.length)
      return failed(`${file} is incomplete: its manifest lists more than it holds.`);

    await secureDataDirectory(dataDirectory);
    const databaseDirectory = path.join(dataDirectory, 'pglite');
    try {
      // PGlite unpacks the tarball into the new data directory and starts from it.
      const db = await openPglite({ dataDir: databaseDirectory, loadDataDir: new Blob([entries[databaseEntry] as Uint8Array<ArrayBuffer>]) });
      try {
        await db.query('SELECT count(*) FROM schema_migrations');
      } finally {
        await db.close();
      }
      const secrets = entries[secretsEntry];
      if (secrets) await writeFile(secretsFileOf(config), secrets, { mode: ownerOnlyFileMode });
      for (const name of uploads) {
        const relative = name.slice(uploadsPrefix.length);
        const target = path.resolve(uploadsDirectoryOf(config), relative);
        // A crafted archive's `../` names never leave the uploads directory.
        if (!target.startsWith(`${uploadsDirectoryOf(config)}${path.sep}`))
          return failed(`${file} holds a file outside uploads/ (${name}); nothing more was restored.`);
        await mkdir(path.dirname(target), { recursive: true, mode: ownerOnlyDirectoryMode });
        await writeFile(target, entries[name] as Uint8Array, { mode: ownerOnlyFileMode, flag: 'wx' });
      }
    } catch (error) {
      await rm(databaseDirectory, { recursive: true, force: true });
      throw error;
    }
    await secureDataDirectory(dataDirectory);
    const notes = manifest.secrets
      ? []
      : [
          'The backup holds no secrets: start the server with the SESSION_SECRET and ENCRYPTION_KEY the backed-up bank used, or its uploads and card numbers cannot be read.',
        ];
    return ok({
      restored: dataDirectory,
      backupCreatedAt: manifest.createdAt,
      migrations: manifest.migrations.length,
      secrets: manifest.secrets,
      uploads: uploads.length,
      next: 'npm run ops -- check-ledger, then start the server',
      notes,
    });
  },
};
