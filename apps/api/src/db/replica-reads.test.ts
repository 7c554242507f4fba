import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openAnotherHandle, type TestDatabase } from '../test/databases.ts';
import type { Database } from './database.ts';
import { isWalPosition, readOnReplica, replicaPoolSizeOf, withReplicaReads } from './replica-reads.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * The replica side of READ_DATABASE_URL (docs/deploy.md, "Reads from replicas") against a server
 * that is not in recovery, which counts as caught up whatever the position (a replica promoted
 * since has every commit of its timeline). A standby that is behind or stopped: faults/replica-reads.test.ts.
 */
describe('positions and sizes', () => {
  it('takes only pg_lsn text as a WAL position, and half the primary pool (at least 2) for the replica', () => {
    expect(['0/0', '16/B374D848', 'ffffffff/ffffffff'].every(isWalPosition)).toBe(true);
    expect(["0/0'; DROP", '16/', '/1', '123456789/0', ''].some(isWalPosition)).toBe(false);
    expect([replicaPoolSizeOf(20), replicaPoolSizeOf(5), replicaPoolSizeOf(2)]).toEqual([10, 2, 2]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('reads on a replica connection (postgres)', () => {
  let server: TestDatabase;
  let withReplica: Database;
  beforeAll(async () => {
    server = await createTestDatabase('postgres', { migrated: false });
    const primary = await openAnotherHandle(server.db);
    withReplica = withReplicaReads(primary.db, server.url ?? '', 2);
  });
  afterAll(async () => {
    await withReplica?.close();
    await server?.dispose();
  });

  it('reads on one held connection of the replica pool, and a server not in recovery counts as caught up', async () => {
    const lease = await withReplica.replicaReads?.lease('FFFFFFFF/FFFFFFFF');
    expect(lease?.source).toBe('replica');
    const pids = await Promise.all([1, 2, 3].map(async () => (await lease?.db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))?.[0]?.pid));
    expect(new Set(pids).size).toBe(1);
    lease?.release();
    lease?.release();
  });

  it('refuses a position that is not one: the caller checks what the client sent', async () => {
    await expect(withReplica.replicaReads?.lease("0/0'; DROP")).rejects.toThrow(/Not a WAL position/);
  });

  it('runs the read again on the primary when the replica connection dies under it, and passes any other error on', async () => {
    const sources: boolean[] = [];
    const answer = await readOnReplica(withReplica, undefined, async (reader) => {
      sources.push(reader === withReplica);
      // The replica goes away mid-read: its backend is ended as an administrator would (57P01).
      if (sources.length === 1) await reader.query('SELECT pg_terminate_backend(pg_backend_pid())');
      return 'read';
    });
    expect(answer).toBe('read');
    expect(sources).toEqual([false, true]);

    let runs = 0;
    await expect(
      readOnReplica(withReplica, undefined, async (reader) => {
        runs += 1;
        await reader.query('SELECT 1/0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(runs).toBe(1);
  });

  it('answers a write made on the replica as a defect of the route, not run again on the primary', async () => {
    // A standby refuses every write with 25006; a replica URL whose sessions are read-only does the same.
    const url = new URL(server.url ?? '');
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    const readOnlyReplica = withReplicaReads(await openAnotherHandle(server.db).then(({ db }) => db), url.toString(), 2);
    try {
      await readOnlyReplica.query('CREATE TABLE IF NOT EXISTS replica_writes (id int)');
      let runs = 0;
      const error = await readOnReplica(readOnlyReplica, undefined, async (reader) => {
        runs += 1;
        await reader.query('INSERT INTO replica_writes (id) VALUES (1)');
      }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(runs).toBe(1);
      expect(String(error)).toMatch(/tried to write/);
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(await readOnlyReplica.query('SELECT id FROM replica_writes')).toEqual([]);
    } finally {
      await readOnlyReplica.close();
    }
  });
});
