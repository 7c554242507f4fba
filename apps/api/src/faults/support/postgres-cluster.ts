import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own, to stop with `pg_ctl -m immediate` and start again: the
 * shared server of the other suites cannot be killed. Durable like a real bank's (fsync and
 * synchronous_commit on, the defaults), on loopback, on a free port. As root, the server runs as
 * the `postgres` user, the way .ci/run starts its own.
 */
export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

/** initdb and pg_ctl on PATH, else the newest under /usr/lib/postgresql/<version>/bin; undefined without them. */
export function findPostgresBinaries(): PostgresBinaries | undefined {
  const directories = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    directories.push(...versions.map((version) => path.join(debian, version, 'bin')));
  }
  const find = (name: string) => directories.map((directory) => path.join(directory, name)).find((candidate) => existsSync(candidate));
  const initdb = find('initdb');
  const pgCtl = find('pg_ctl');
  return initdb && pgCtl ? { initdb, pgCtl } : undefined;
}

export interface PostgresCluster {
  readonly port: number;
  /** postgres://user@127.0.0.1:port/postgres */
  readonly url: string;
  /** The cluster's data directory (its WAL is under pg_wal/). */
  readonly dataDirectory: string;
  /** Starts the server and waits until it accepts connections (crash recovery included). */
  start(): Promise<void>;
  /** `pg_ctl -m immediate stop`: a crash, no checkpoint; the next start replays the WAL. */
  crash(): Promise<void>;
  /** The server's own log, for a failure's message. */
  log(): Promise<string>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

export interface ClusterOptions {
  /** More `name=value` settings for the server (the benchmark keeps WAL longer, say). */
  settings?: readonly string[];
}

export async function createPostgresCluster(binaries: PostgresBinaries, clusterOptions: ClusterOptions = {}): Promise<PostgresCluster> {
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-faults-pg-'));
  const dataDirectory = path.join(directory, 'data');
  const logFile = path.join(directory, 'server.log');
  const user = asRoot ? 'postgres' : userInfo().username;
  const port = await freePort();

  async function asOwner(command: string, args: string[]): Promise<void> {
    if (asRoot) {
      const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
      await chown(directory, Number(uid.trim()), Number(gid.trim()));
      await run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 120_000 });
    } else {
      await run(command, args, { timeout: 120_000 });
    }
  }

  // --no-sync only skips flushing the fresh template files; the running server has fsync on.
  await asOwner(binaries.initdb, ['-D', dataDirectory, '-A', 'trust', '-U', user, '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${directory}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=100',
    // Durable, as a bank runs it: what was acknowledged survives `pg_ctl -m immediate`.
    '-c fsync=on',
    '-c synchronous_commit=on',
    '-c full_page_writes=on',
    ...(clusterOptions.settings ?? []).map((setting) => `-c ${setting}`),
  ].join(' ');

  const cluster: PostgresCluster = {
    port,
    url: `postgres://${user}@127.0.0.1:${port}/postgres`,
    dataDirectory,
    async start() {
      await asOwner(binaries.pgCtl, ['-D', dataDirectory, '-l', logFile, '-w', '-t', '60', '-o', options, 'start']);
    },
    async crash() {
      await asOwner(binaries.pgCtl, ['-D', dataDirectory, '-m', 'immediate', '-w', 'stop']);
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    async destroy() {
      await asOwner(binaries.pgCtl, ['-D', dataDirectory, '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
