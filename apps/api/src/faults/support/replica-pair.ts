import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createPostgresCluster, type PostgresBinaries, type PostgresCluster } from './postgres-cluster.ts';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/**
 * A primary and one streaming standby of the test's own (issue 36 item 3): the primary from
 * postgres-cluster.ts with replication allowed, the standby copied from it by `pg_basebackup -R`
 * and started on its own loopback port. Asynchronous, as a read replica is: the standby's replay
 * can be paused to make it as far behind as a test needs.
 */
export interface ReplicaPair {
  readonly primary: PostgresCluster;
  /** postgres://user@127.0.0.1:port/postgres of the standby (read-only, hot standby). */
  readonly standbyUrl: string;
  /** Runs one statement on a server as the superuser, on a connection of its own. */
  sql<Row extends object>(url: string, text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** `pg_ctl -m immediate stop` of the standby: it is gone, its connections with it. */
  stopStandby(): Promise<void>;
  /** Stops both servers and removes their directories. */
  destroy(): Promise<void>;
}

/**
 * pg_basebackup of the same version as initdb: beside it, or beside what it links to (initdb on
 * PATH may be a link into /usr/lib/postgresql/<version>/bin); undefined without it.
 */
export function findBaseBackup(binaries: PostgresBinaries): string | undefined {
  const directories = [path.dirname(binaries.initdb), path.dirname(realpathSync(binaries.initdb))];
  return directories.map((directory) => path.join(directory, 'pg_basebackup')).find((candidate) => existsSync(candidate));
}

export async function createReplicaPair(binaries: PostgresBinaries, baseBackup: string): Promise<ReplicaPair> {
  const primary = await createPostgresCluster(binaries, { settings: ['wal_level=replica', 'max_wal_senders=4', 'hot_standby=on'] });
  const directory = await mkdtemp(path.join(tmpdir(), 'strongroom-faults-standby-'));
  const dataDirectory = path.join(directory, 'data');
  const logFile = path.join(directory, 'server.log');
  const user = asRoot ? 'postgres' : userInfo().username;
  const port = await freePort();

  async function asOwner(command: string, args: string[]): Promise<void> {
    if (!asRoot) {
      await run(command, args, { timeout: 120_000 });
      return;
    }
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    await chown(directory, Number(uid.trim()), Number(gid.trim()));
    await run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 120_000 });
  }

  const sql = async <Row extends object>(url: string, text: string, params: readonly unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(text, params as unknown[])).rows;
    } finally {
      await client.end();
    }
  };

  const standbyUrl = `postgres://${user}@127.0.0.1:${port}/postgres`;
  const stop = () => asOwner(binaries.pgCtl, ['-D', dataDirectory, '-m', 'immediate', '-w', 'stop']);
  try {
    // -R writes primary_conninfo and standby.signal: the copy starts as a standby streaming from the primary.
    await asOwner(baseBackup, ['-h', '127.0.0.1', '-p', String(primary.port), '-U', user, '-D', dataDirectory, '-R', '-X', 'stream', '--no-sync']);
    const options = [`-p ${port}`, `-k ${directory}`, '-c listen_addresses=127.0.0.1', '-c hot_standby=on', '-c max_connections=100'].join(' ');
    await asOwner(binaries.pgCtl, ['-D', dataDirectory, '-l', logFile, '-w', '-t', '60', '-o', options, 'start']);
  } catch (error) {
    await primary.destroy();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }

  return {
    primary,
    standbyUrl,
    sql,
    async caughtUp(timeoutMs = 30_000) {
      const [written] = await sql<{ position: string }>(primary.url, 'SELECT pg_current_wal_lsn()::text AS position');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [standby] = await sql<{ caught_up: boolean }>(standbyUrl, 'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up', [written?.position]);
        if (standby?.caught_up) return;
        if (Date.now() > deadline) throw new Error(`the standby did not replay ${written?.position} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stopStandby: stop,
    async destroy() {
      await stop().catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
      await primary.destroy();
    },
  };
}
